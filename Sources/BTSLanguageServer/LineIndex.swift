/// Positions in a document as LSP counts them (a line, and a character offset in UTF-16 code
/// units) and as the parser counts them (UTF-8 byte offsets), converted both ways.
public struct LineIndex: Sendable {
    public let bytes: [UInt8]
    /// The byte offset where each line starts.
    private let lineStarts: [Int]

    public init(_ text: String) {
        bytes = Array(text.utf8)
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == 10 { starts.append(index + 1) }
        lineStarts = starts
    }

    public var lineCount: Int { lineStarts.count }

    /// The line holding byte `offset` (0-based).
    public func line(of offset: Int) -> Int {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The bytes of line `line` without its line break.
    public func lineBytes(_ line: Int) -> ArraySlice<UInt8> {
        guard lineStarts.indices.contains(line) else { return [] }
        let start = lineStarts[line]
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : bytes.count
        if end > start, bytes[end - 1] == 13 { end -= 1 }
        return bytes[start..<max(start, end)]
    }

    /// The LSP position of byte `offset`.
    public func position(of offset: Int) -> (line: Int, character: Int) {
        let clamped = min(max(0, offset), bytes.count)
        let line = self.line(of: clamped)
        let prefix = bytes[lineStarts[line]..<clamped]
        return (line, String(decoding: prefix, as: UTF8.self).utf16.count)
    }

    /// The byte offset of an LSP position (clamped to the line's end and to the document).
    public func offset(line: Int, character: Int) -> Int {
        guard line >= 0 else { return 0 }
        guard line < lineStarts.count else { return bytes.count }
        let content = lineBytes(line)
        var units = 0
        var offset = content.startIndex
        for scalar in String(decoding: content, as: UTF8.self).unicodeScalars {
            let width = scalar.utf16.count
            guard units + width <= character else { break }
            units += width
            offset += scalar.utf8.count
        }
        return offset
    }
}
