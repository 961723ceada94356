/// Positions in a document as LSP counts them (a line, and a character offset in UTF-16 code
/// units) and as the parser counts them (UTF-8 byte offsets), converted both ways.
package struct LineIndex: Sendable {
    /// The text's UTF-8 bytes (valid UTF-8: it is a `String`'s, or one edited at character starts).
    package let bytes: [UInt8]
    /// The byte offset where each line starts.
    let lineStarts: [Int]

    package init(_ text: String) {
        bytes = Array(text.utf8)
        lineStarts = Self.lineStarts(of: bytes)
    }

    /// An index of `bytes` whose lines start at `lineStarts` (as ``lineStarts(of:)`` finds them).
    init(bytes: [UInt8], lineStarts: [Int]) {
        self.bytes = bytes
        self.lineStarts = lineStarts
    }

    /// Where each line of `bytes` starts: at 0, and after each line feed (a CR alone is no line break).
    static func lineStarts(of bytes: [UInt8]) -> [Int] {
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == 10 { starts.append(index + 1) }
        return starts
    }

    package var lineCount: Int { lineStarts.count }

    /// What the document holds in memory, in bytes: its text and its line index.
    package var footprint: Int { bytes.count + lineStarts.count * MemoryLayout<Int>.stride }

    /// The line holding byte `offset` (0-based).
    package func line(of offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The bytes of line `line` without its line break.
    package func lineBytes(_ line: Int) -> ArraySlice<UInt8> {
        guard lineStarts.indices.contains(line) else { return [] }
        let start = lineStarts[line]
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : bytes.count
        if end > start, bytes[end - 1] == 13 { end -= 1 }
        return bytes[start..<max(start, end)]
    }

    /// The LSP position of byte `offset`.
    package func position(of offset: Int) -> (line: Int, character: Int) {
        let clamped = min(max(0, offset), bytes.count)
        let line = self.line(of: clamped)
        let prefix = bytes[lineStarts[line]..<clamped]
        return (line, String(decoding: prefix, as: UTF8.self).utf16.count)
    }

    /// The byte offset of an LSP position (clamped to the line's end and to the document).
    package func offset(line: Int, character: Int) -> Int {
        guard line >= 0 else { return 0 }
        guard line < lineStarts.count else { return bytes.count }
        let content = lineBytes(line)
        return bytes.withUnsafeBufferPointer { bytes in
            Self.offset(from: content.startIndex, to: content.endIndex, units: character) { bytes[$0] }
        }
    }

    /// Walking valid UTF-8 from byte `start` towards `end` (each byte read by `byte`), the offset
    /// after `units` UTF-16 code units: a scalar of 4 bytes is 2 units, any other 1; a scalar that
    /// would go past `units` is not entered (a position inside a surrogate pair is its scalar's start).
    @inline(__always)
    static func offset(from start: Int, to end: Int, units: Int, _ byte: (Int) -> UInt8) -> Int {
        var counted = 0
        var offset = start
        while offset < end {
            let lead = byte(offset)
            let length = lead < 0xC0 ? 1 : (lead < 0xE0 ? 2 : (lead < 0xF0 ? 3 : 4))
            let width = length == 4 ? 2 : 1
            guard counted + width <= units else { break }
            counted += width
            offset += length
        }
        return min(offset, end)
    }
}
