/// Terminal display width of text, as used for diagnostic columns and caret lines.
package enum DisplayWidth {
    /// Tab stops are every 8 columns, as on a terminal.
    package static let tabWidth = 8

    /// The width of `text` in a diagnostic snippet starting at column 0 (tabs expanded, control
    /// characters as their Control Pictures).
    package static func of(_ text: String) -> Int {
        // Printable ASCII and tabs are counted byte by byte (so a diagnostic on a long line does not
        // walk its whole prefix one Character at a time); the rest from the last ASCII byte
        // followed by another ASCII byte (a grapheme boundary: a mark may follow a base, a LF a CR).
        var column = 0
        let utf8 = text.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            let next = utf8.index(after: index)
            guard byte == 0x09 || (0x20..<0x7F).contains(byte), next == utf8.endIndex || utf8[next] < 0x80 else {
                break
            }
            column = byte == 0x09 ? (column / tabWidth + 1) * tabWidth : column + 1
            index = next
        }
        for character in text[index...] { column = advance(column, by: character) }
        return column
    }

    /// The column after printing `character` at `column` in a diagnostic snippet (tabs to the next
    /// stop, control characters as their Control Pictures).
    package static func advance(_ column: Int, by character: Character) -> Int {
        // Printable ASCII without the Unicode property look-ups (CR LF's asciiValue is LF: not here).
        if let ascii = character.asciiValue, (0x20..<0x7F).contains(ascii) { return column + 1 }
        if character == "\t" { return (column / tabWidth + 1) * tabWidth }
        return column + printable(character).reduce(0) { $0 + width(of: $1) }
    }

    /// The columns one character takes on a terminal, printed as it is: 0 for control characters,
    /// combining and format marks on their own; 2 for East Asian wide characters and emoji; else 1.
    /// (A base character with its combining marks is one `Character`: its base decides.)
    package static func width(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let value = first.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        if first.properties.isEmojiPresentation { return 2 }
        return isWide(value) ? 2 : 1
    }

    /// How `character` is printed in a snippet: control characters become their visible Control Pictures.
    package static func printable(_ character: Character) -> String {
        // Per scalar: a Character can hide a control behind a combining mark ("\u{1B}\u{301}") or be
        // CR LF; C0 and DEL become control pictures, C1 and bidi controls U+FFFD (TerminalText's rule).
        guard character.unicodeScalars.contains(where: TerminalText.needsWork) else { return String(character) }
        var output = String.UnicodeScalarView()
        for scalar in character.unicodeScalars { output.append(TerminalText.replacement(for: scalar) ?? scalar) }
        return String(output)
    }

    /// Text safe for a terminal: every character through `printable` (messages quoting source text).
    package static func printable(text: String) -> String {
        guard TerminalText.containsWork(text) else { return text }
        return text.map(printable).joined()
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// Words of `text` in lines of at most `width` (the first) and `rest` (the others) display
    /// columns; a single word wider than that stands alone on its line. Help text and errors on a
    /// terminal are wrapped with it.
    package static func wrap(_ text: String, width: Int, rest: Int? = nil) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in text.split(separator: " ") {
            let wordWidth = of(String(word))
            let limit = lines.isEmpty ? width : (rest ?? width)
            if !line.isEmpty, lineWidth + 1 + wordWidth > limit {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            if !line.isEmpty {
                line += " "
                lineWidth += 1
            }
            line += word
            lineWidth += wordWidth
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
