/// Prose fitted to a terminal's width: each line wider than the width is broken at spaces, never
/// inside a word. A word wider than the width (a URL, a path) stays whole on a line of its own;
/// continuation lines start with the first line's indent (unless that indent takes half the width
/// or more); ANSI SGR/CSI sequences take no columns, East Asian wide characters and emoji two
/// (``DisplayWidth``). Lines that fit, and the text's own line breaks, are left as they are.
package enum ProseWrap {
    /// `text` with every line that is wider than `width` display columns broken at spaces (text
    /// unchanged when `width` is below 1).
    package static func wrap(_ text: String, width: Int) -> String {
        guard width > 0, !text.isEmpty else { return text }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // Common case: nothing to do (DisplayWidth counts an escape as a visible column, so a
        // line it finds narrow enough is).
        guard lines.contains(where: { DisplayWidth.of(String($0)) > width }) else { return text }
        return lines.map { wrapLine(String($0), width: width).joined(separator: "\n") }.joined(separator: "\n")
    }

    /// One line (no line break in it) as lines of at most `width` display columns, broken at
    /// spaces; a single word wider than that stands alone on its line.
    package static func wrapLine(_ line: String, width: Int) -> [String] {
        guard width > 0, DisplayWidth.of(line) > width else { return [line] }
        let characters = Array(line)
        var position = 0
        while position < characters.count, characters[position] == " " { position += 1 }
        let indent = String(repeating: " ", count: position)
        let continuation = position * 2 < width ? indent : ""
        var result: [String] = []
        var current = indent
        var currentWidth = position
        var hasWord = false
        while position < characters.count {
            var gap = 0
            while position < characters.count, characters[position] == " " {
                gap += 1
                position += 1
            }
            guard position < characters.count else { break }  // trailing spaces go
            let (word, wordWidth, next) = word(in: characters, from: position)
            position = next
            let spaces = String(repeating: " ", count: gap)
            if !hasWord {
                current += spaces + word
                currentWidth += gap + wordWidth
                hasWord = true
            } else if currentWidth + gap + wordWidth <= width {
                current += spaces + word
                currentWidth += gap + wordWidth
            } else if wordWidth == 0 {
                // A style change alone (no columns): kept on this line, without the spaces.
                current += word
            } else {
                result.append(current)
                current = continuation + word
                currentWidth = continuation.count + wordWidth
            }
        }
        result.append(current)
        return result
    }

    /// The word starting at `start` (up to the next space), its display width (escape sequences
    /// take none) and the index after it.
    static func word(in characters: [Character], from start: Int) -> (String, Int, Int) {
        var index = start
        var width = 0
        var text = ""
        while index < characters.count, characters[index] != " " {
            let character = characters[index]
            if character == "\u{1B}" {
                let end = escapeEnd(in: characters, from: index)
                text += String(characters[index..<end])
                index = end
                continue
            }
            width = DisplayWidth.advance(width, by: character)
            text.append(character)
            index += 1
        }
        return (text, width, index)
    }

    /// The index after the escape sequence at `start`: a CSI (`ESC [` parameters, a final byte in
    /// `@`…`~`) whole, any other escape as ESC and the character after it.
    static func escapeEnd(in characters: [Character], from start: Int) -> Int {
        var index = start + 1
        guard index < characters.count else { return index }
        guard characters[index] == "[" else { return index + 1 }
        index += 1
        while index < characters.count {
            let isFinal = characters[index].unicodeScalars.first.map { (0x40...0x7E).contains($0.value) } ?? false
            index += 1
            if isFinal { break }
        }
        return index
    }
}
