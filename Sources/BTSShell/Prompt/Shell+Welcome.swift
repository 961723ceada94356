import Foundation

extension Shell {
    /// The one line an interactive session starts with (stderr, silenced by `--quiet`): version and
    /// commit, the backend the commands will use (named without opening it), and where to start.
    func welcome() {
        note(Self.welcomeLine(version: BTSVersion.full, backend: promptBackendName()))
    }

    /// `bts 0.1.0 (commit 1a2b3c4) · backend embedded · type 'help' · Ctrl-D quits` (74 columns with
    /// the embedded backend: it fits an 80-column terminal).
    static func welcomeLine(version: String, backend: String) -> String {
        "bts \(version) · backend \(backend) · type 'help' · Ctrl-D quits"
    }
}
