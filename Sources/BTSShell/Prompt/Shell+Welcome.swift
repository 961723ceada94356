import BTSLanguage
import BTSTerminal
import BTSTerminalText
import Foundation

extension Shell {
    /// The one line an interactive session starts with (stderr, silenced by `--quiet`): version and
    /// commit, the backend the commands will use (named without opening it), and where to start.
    func welcome() {
        note(Self.welcomeLine(version: BTSVersion.full, backend: promptBackendName(), columns: output.terminal.columns))
    }

    /// `bts 0.1.0 (commit 1a2b3c4) · backend embedded · type 'help' · Ctrl-D quits` (74 columns with
    /// the embedded backend). Where that does not fit `columns` (a server's address is longer than
    /// `embedded`: 82 columns for `127.0.0.1:18777`, wrapped at 80), the hints go, last first; the
    /// version and the backend always stay.
    static func welcomeLine(version: String, backend: String, columns: Int? = nil) -> String {
        var parts = ["bts \(version)", "backend \(backend)", "type 'help'", "Ctrl-D quits"]
        func line() -> String { parts.joined(separator: " · ") }
        while let columns, parts.count > 2, line().reduce(0, { $0 + DisplayWidth.width(of: $1) }) > columns {
            parts.removeLast()
        }
        return line()
    }
}
