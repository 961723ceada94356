/// The history file's format: one entry per line, UTF-8, with `\` escaping so multi-line entries
/// round-trip: `\\` is a backslash, `\n` a newline, `\r` a carriage return. Unknown escapes
/// and a trailing lone `\` are kept literally (so hand-edited files still load).
enum HistoryFileFormat {
    static func escape(_ entry: String) -> String {
        var out = ""
        out.reserveCapacity(entry.utf8.count)
        for scalar in entry.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func unescape(_ line: Substring) -> String {
        guard line.contains("\\") else { return String(line) }
        var out = String.UnicodeScalarView()
        var iterator = line.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\" else {
                out.append(scalar)
                continue
            }
            guard let next = iterator.next() else {
                out.append("\\")
                break
            }
            switch next {
            case "\\": out.append("\\")
            case "n": out.append("\n")
            case "r": out.append("\r")
            default:
                out.append("\\")
                out.append(next)
            }
        }
        return String(out)
    }

    /// Entries of a history file's contents (empty lines skipped, adjacent duplicates collapsed).
    static func parse(_ contents: String) -> [String] {
        var entries: [String] = []
        for bytes in contents.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            var bytes = bytes
            if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
            guard !bytes.isEmpty else { continue }
            let line = Substring(bytes)
            let entry = unescape(line)
            if entries.last != entry { entries.append(entry) }
        }
        return entries
    }

    /// File contents for `entries`.
    static func render(_ entries: [String]) -> String {
        entries.map { escape($0) + "\n" }.joined()
    }
}
