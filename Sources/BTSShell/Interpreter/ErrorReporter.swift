import BTSLanguage
import BTSTerminalText

/// The one place errors become text: clang-style `file:line:col: error: …` with a caret snippet
/// when the error points into a script, plain `error: …` otherwise (an interactive line), and
/// `bts serve: error: …` for a program's own failures (``origin``). The shell's every catch site
/// and the executable's (`bts serve`'s start-up, the data builders) render through it.
package struct ErrorReporter: Sendable {
    package var colored: Bool
    /// Show `file:line:col` and the snippet (false for lines typed at the prompt, where the line
    /// is right above the message: no place, and only a usage error's caret under its line).
    package var showsLocation: Bool
    /// The terminal's width when stderr is one: a plain message and its details are wrapped at
    /// spaces to fit (nil: one line each, as scripts and logs want them).
    package var width: Int?
    /// The program the error is from, before `error:` on a plain message (`bts serve`); nil in the shell.
    package var origin: String?

    package init(colored: Bool = false, showsLocation: Bool = true, width: Int? = nil, origin: String? = nil) {
        self.colored = colored
        self.showsLocation = showsLocation
        self.width = width
        self.origin = origin
    }

    /// The rendered error (every line ends in a newline).
    package func render(_ raw: ShellError, in source: SourceFile?) -> String {
        // Messages and details may quote a server or a file: neutralised here, the one place errors become text.
        var error = raw
        error.message = TerminalText.sanitize(error.message, lines: .flatten)
        error.details = error.details.map { TerminalText.sanitize($0, lines: .flatten) }
        let renderer = DiagnosticRenderer(colored: colored, width: width, showsPlace: showsLocation)
        var output = ""
        if !error.diagnostics.isEmpty, let source {
            output = renderer.render(error.diagnostics, in: source)
        } else if let source, let range = error.range, showsLocation || error.status == .usage {
            output = renderer.render(Diagnostic.error(error.message, rule: .runError, at: range), in: source)
        } else {
            // "error: " takes 7 columns of the first line; later lines start 2 in.
            let lines = fitted(error.message, first: 7, rest: 2)
            output =
                (origin.map { "\($0): " } ?? "") + ANSIStyle.red.apply("error:", enabled: colored) + " "
                + lines.joined(separator: "\n  ") + "\n"
        }
        for line in error.details {
            output += "  " + fitted(line, first: 2, rest: 4).joined(separator: "\n    ") + "\n"
        }
        return output
    }

    /// `text` in lines that fit the width after the first line's `first` and the other lines'
    /// `rest` columns of prefix (one line without a width, or when the width leaves too little).
    private func fitted(_ text: String, first: Int, rest: Int) -> [String] {
        guard let width, width - first >= 20, first + DisplayWidth.of(text) > width else { return [text] }
        let lines = DisplayWidth.wrap(text, width: width - first, rest: width - rest)
        return lines.isEmpty ? [text] : lines
    }
}
