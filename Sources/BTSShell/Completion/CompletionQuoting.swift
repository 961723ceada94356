/// How a completed word is written back into the line so the bts lexer reads it as typed.
package enum CompletionQuoting: Sendable, Equatable {
    /// A bare word: blanks and special characters get a backslash (`My\ Books/`).
    case bare
    /// Inside `'…'` (literal; a `'` itself falls back to double quotes).
    case single
    /// Inside `"…"`: `"`, `\` and `$` get a backslash.
    case double

    /// The quoting the user started `typed` with (its first character).
    static func of(typed source: Substring) -> CompletionQuoting {
        switch source.first {
        case "'": return .single
        case "\"": return .double
        default: return .bare
        }
    }

    /// `text` written in this quoting. `closed`: add the closing quote (a finished word);
    /// otherwise leave the quote open so the user can keep typing (a directory).
    func write(_ text: String, closed: Bool) -> String {
        switch self {
        case .bare:
            var out = ""
            for (index, character) in text.enumerated() {
                if Self.needsEscapeInBareWord(character, atStart: index == 0) { out.append("\\") }
                out.append(character)
            }
            return out
        case .single:
            guard !text.contains("'") else { return CompletionQuoting.double.write(text, closed: closed) }
            return "'" + text + (closed ? "'" : "")
        case .double:
            var out = "\""
            for character in text {
                if character == "\"" || character == "\\" || character == "$" { out.append("\\") }
                out.append(character)
            }
            return out + (closed ? "\"" : "")
        }
    }

    /// Characters the lexer would treat specially in a bare word.
    static func needsEscapeInBareWord(_ character: Character, atStart: Bool) -> Bool {
        switch character {
        case " ", "\t", "\n", "\r", ";", "'", "\"", "\\", "$": return true
        case "#": return atStart
        default: return false
        }
    }

    /// A title as inserted: always double-quoted (titles have blanks and punctuation).
    static func title(_ title: String) -> String {
        let special = title.utf8.contains {
            $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "$")
        }
        return special ? CompletionQuoting.double.write(title, closed: true) : "\"" + title + "\""
    }
}
