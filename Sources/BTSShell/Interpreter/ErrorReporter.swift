import BTSLanguage

/// The one place errors become text: clang-style `file:line:col: error: …` with a caret snippet
/// when the error points into a script, plain `error: …` otherwise (an interactive line).
public struct ErrorReporter: Sendable {
    public var colored: Bool
    /// Show `file:line:col` and the snippet (false for lines typed at the prompt, where the
    /// line is right above the message).
    public var showsLocation: Bool

    public init(colored: Bool = false, showsLocation: Bool = true) {
        self.colored = colored
        self.showsLocation = showsLocation
    }

    /// The rendered error (every line ends in a newline).
    public func render(_ raw: ShellError, in source: SourceFile?) -> String {
        // Messages and details may quote a server or a file: neutralised here, the one place errors become text.
        var error = raw
        error.message = TerminalText.sanitize(error.message, lines: .flatten)
        error.details = error.details.map { TerminalText.sanitize($0, lines: .flatten) }
        let renderer = DiagnosticRenderer(colored: colored)
        var output = ""
        if !error.diagnostics.isEmpty, let source {
            output = renderer.render(error.diagnostics, in: source)
        } else if let source, let range = error.range, showsLocation || error.status == .usage {
            output = renderer.render(Diagnostic.error(error.message, at: range), in: source)
        } else {
            output = ANSIStyle.red.apply("error:", enabled: colored) + " " + error.message + "\n"
        }
        for line in error.details {
            output += "  " + line + "\n"
        }
        return output
    }
}
