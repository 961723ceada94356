import BTSTerminalText

extension SessionJob {
    /// The longest job id shown whole.
    static let plausibleIDLength = 64
    /// How many characters of an implausible id are shown before "…".
    static let shownIDPrefix = 12

    /// Whether `id` looks like a job id: 1–64 ASCII letters, digits, `-`, `_`, `.` or `:` (a UUID,
    /// production's `batch_7c1e`).
    static func isPlausibleID(_ id: String) -> Bool {
        let bytes = id.utf8
        guard !bytes.isEmpty, bytes.count <= plausibleIDLength else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: ":"):
                return true
            default:
                return false
            }
        }
    }

    /// A job id as notes, errors and tables show it: a plausible id whole; any other (a server's
    /// choice: controls, escapes, kilobytes) neutralised and cut to its first characters, marked with
    /// "…" and quoted, so it can neither drive the terminal nor flood a line.
    static func displayID(_ id: String) -> String {
        if isPlausibleID(id) { return id }
        let flat = TerminalText.sanitize(id, lines: .flatten)
        let shown = flat.count > shownIDPrefix ? String(flat.prefix(shownIDPrefix)) + "…" : flat
        return "'\(shown)'"
    }
}
