import BTSTerminalText

/// A named piece of command text (a script file, `<stdin>`, or a `-c` argument).
///
/// Offsets are UTF-8 byte offsets. Line and column numbers are 1-based; the column is a
/// terminal display column (tabs advance to the next multiple of 8, wide characters count 2),
/// like GCC's `-fdiagnostics-column-unit=display`.
package struct SourceFile: Sendable {
    /// The name shown in diagnostics, e.g. `script.bts`, `<stdin>` or `-c`.
    package let name: String
    /// The full text.
    package let text: String
    /// The text as UTF-8 bytes.
    package let bytes: [UInt8]
    /// Offsets at which each line starts (line 1 starts at 0).
    package let lineStarts: [Int]
    /// The number diagnostics show for the text's first line: a command read from a pipe as
    /// line 12 of the stream is its own source whose first line reads "12".
    package let firstLine: Int

    package init(name: String, text: String, firstLine: Int = 1) {
        self.name = name
        self.text = text
        self.firstLine = firstLine
        let bytes = Array(text.utf8)
        self.bytes = bytes
        self.lineStarts = Self.lineStarts(of: bytes)
    }

    /// Offsets at which each line starts (a line feed is looked for 8 bytes at a time).
    private static func lineStarts(of bytes: [UInt8]) -> [Int] {
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var index = 0
            while index < buffer.count {
                let remaining = buffer.count - index
                let word =
                    remaining >= 8
                    ? ByteWords.load(base + index) : ByteWords.load(base + index, count: remaining, filler: 0)
                var feeds = ByteWords.equal(word, byte: UInt8(ascii: "\n"))
                while feeds != 0 {
                    starts.append(index + ByteWords.first(feeds) + 1)
                    feeds &= feeds &- 1
                }
                index += 8
            }
        }
        return starts
    }

    /// The number of lines (a trailing newline opens a final empty line).
    package var lineCount: Int { lineStarts.count }

    /// The 1-based line containing `offset` (clamped into the text).
    package func line(containing offset: Int) -> Int {
        let offset = min(max(0, offset), bytes.count)
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low + 1
    }

    /// The byte range of a 1-based line's content, without its `\n` (or `\r\n`).
    package func lineContentRange(_ line: Int) -> SourceRange {
        let index = min(max(1, line), lineStarts.count) - 1
        let start = lineStarts[index]
        var end = index + 1 < lineStarts.count ? lineStarts[index + 1] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return SourceRange(from: start, to: end)
    }

    /// The text of a 1-based line, without its line terminator.
    package func lineText(_ line: Int) -> String {
        slice(lineContentRange(line))
    }

    /// The text covered by `range` (clamped into the text; partial characters become U+FFFD).
    package func slice(_ range: SourceRange) -> String {
        let start = min(max(0, range.offset), bytes.count)
        let end = min(max(start, range.end), bytes.count)
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The 1-based line and display column of `offset`.
    package func location(of offset: Int) -> SourceLocation {
        location(of: offset, walked: nil)
    }

    /// `location(of:)`, its column read from `walked` when that is its line from its start and a
    /// character starts at `offset` there.
    func location(of offset: Int, walked: WalkedLine?) -> SourceLocation {
        var clamped = min(max(0, offset), bytes.count)
        // An offset inside a multi-byte character belongs to that character.
        while clamped > 0, clamped < bytes.count, bytes[clamped] & 0xC0 == 0x80 { clamped -= 1 }
        let line = line(containing: clamped)
        let lineStart = lineStarts[line - 1]
        if let walked, walked.lower == lineStart, clamped <= walked.upper,
            let column = walked.column(atStart: clamped - lineStart)
        {
            return SourceLocation(line: line, column: column + 1, offset: clamped)
        }
        // (From a line's start to a character's start: valid UTF-8, measured in place.)
        let width = bytes.withUnsafeBufferPointer {
            DisplayColumns.width(of: UnsafeBufferPointer(rebasing: $0[lineStart..<clamped]))
        }
        return SourceLocation(line: line, column: width + 1, offset: clamped)
    }
}

/// A resolved position: 1-based line, 1-based display column, and the byte offset.
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    package let line: Int
    package let column: Int
    package let offset: Int

    package var description: String { "\(line):\(column)" }
}
