/// The SGR sequences bts writes: the one ANSI table of the shell's output, the prompt and the
/// diagnostics. Applied only when colour is on.
package enum ANSIStyle: String, Sendable, CaseIterable {
    case bold = "\u{1B}[1m"
    case dim = "\u{1B}[2m"
    case red = "\u{1B}[31m"
    case green = "\u{1B}[32m"
    case yellow = "\u{1B}[33m"
    case cyan = "\u{1B}[36m"
    /// An object's keys in JSON on a terminal (bold blue, as jq).
    case jsonKey = "\u{1B}[1;34m"
    /// clang's diagnostic styles: bold red `error:`, bold magenta `warning:`, bold grey `note:`,
    /// bold green caret line (each resets first).
    case errorLabel = "\u{1B}[0;1;31m"
    case warningLabel = "\u{1B}[0;1;35m"
    case noteLabel = "\u{1B}[0;1;30m"
    case caret = "\u{1B}[0;1;32m"
    case reset = "\u{1B}[0m"

    /// Erases from the cursor to the end of the line (EL), after a `\r` that rewrites a status line.
    package static let eraseToEndOfLine = "\u{1B}[K"

    /// `text` wrapped in this style when `enabled`, else `text` unchanged.
    package func apply(_ text: String, enabled: Bool) -> String {
        enabled && !text.isEmpty ? rawValue + text + ANSIStyle.reset.rawValue : text
    }
}
