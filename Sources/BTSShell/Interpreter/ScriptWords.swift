import Foundation

/// Words written back as bts text (an alias's body, the command `bts help search` runs, the
/// `bts -c '…'` a hint suggests).
package enum ScriptWords {
    /// `text` as one bts word: bare when it has nothing the lexer reads specially (and
    /// `bareWhenPlain`), else in single quotes (double quotes when it holds a `'`).
    package static func quoted(_ text: String, bareWhenPlain: Bool = true) -> String {
        if bareWhenPlain, !text.isEmpty, text.unicodeScalars.allSatisfy(isBare) { return text }
        guard text.contains("'") else { return "'\(text)'" }
        var escaped = ""
        for character in text {
            if character == "\\" || character == "\"" || character == "$" { escaped.append("\\") }
            escaped.append(character)
        }
        return "\"\(escaped)\""
    }

    /// `words` as one line of bts text.
    package static func line(_ words: [String]) -> String {
        words.map { quoted($0) }.joined(separator: " ")
    }

    /// `text` as one word of a POSIX shell (for hints such as `bts -c '…'`).
    package static func posixQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func isBare(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || "-_./:,+@%=".unicodeScalars.contains(scalar))
    }
}
