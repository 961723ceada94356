/// LSP's encoding of semantic tokens: five integers a token (line, start character, length, type,
/// modifiers), the line relative to the token before and the start to it on the same line; UTF-16
/// columns; no token spans a line break (a piece across lines is one token a line, for clients
/// without `multilineTokenSupport`). And the delta between two such arrays.
enum SemanticTokenData {
    /// The data of `pieces` (in order; a piece overlapping the one before starts at its end) in
    /// `bytes`, keeping only what lies in bytes `range`. One pass over the bytes up to the last piece.
    static func encode(
        _ pieces: [ScriptHighlights.Piece],
        in bytes: [UInt8],
        range: Range<Int>? = nil
    ) -> [Int] {
        var data: [Int] = []
        data.reserveCapacity(pieces.count * 5)
        bytes.withUnsafeBufferPointer { buffer in
            var walker = Walker(bytes: buffer)
            var previousLine = 0
            var previousStart = 0
            for piece in pieces {
                var start = max(piece.offset, walker.offset)
                var end = min(piece.end, buffer.count)
                if let range {
                    start = max(start, range.lowerBound)
                    end = min(end, range.upperBound)
                }
                guard start < end else { continue }
                walker.advance(to: start)
                while walker.offset < end {
                    let (line, column) = (walker.line, walker.column)
                    let segmentEnd = walker.advanceInLine(to: end)
                    // A `\r` before the line break is not part of the line.
                    var length = walker.column - column
                    if segmentEnd > 0, buffer[segmentEnd - 1] == 13, segmentEnd < buffer.count, buffer[segmentEnd] == 10
                    {
                        length -= 1
                    }
                    if length > 0 {
                        data.append(line - previousLine)
                        data.append(line == previousLine ? column - previousStart : column)
                        data.append(length)
                        data.append(piece.type.rawValue)
                        data.append(piece.modifiers)
                        (previousLine, previousStart) = (line, column)
                    }
                    if walker.offset < end { walker.advance(to: walker.offset + 1) }
                }
            }
        }
        return data
    }

    /// A position walked forward through valid UTF-8: its byte offset, line and UTF-16 column.
    private struct Walker {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0
        var line = 0
        var column = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// Walks to byte `target` (or the scalar boundary after it).
        mutating func advance(to target: Int) {
            while offset < target, offset < bytes.count {
                if bytes[offset] == 10 {
                    line += 1
                    column = 0
                    offset += 1
                } else {
                    step()
                }
            }
        }

        /// Walks towards byte `target`, stopping at a line break; returns where it stopped.
        mutating func advanceInLine(to target: Int) -> Int {
            while offset < target, offset < bytes.count, bytes[offset] != 10 { step() }
            return offset
        }

        private mutating func step() {
            let lead = bytes[offset]
            let length = lead < 0xC0 ? 1 : (lead < 0xE0 ? 2 : (lead < 0xF0 ? 3 : 4))
            column += length == 4 ? 2 : 1
            offset = min(offset + length, bytes.count)
        }
    }

    /// The edits that turn `old` into `new`: none when they are equal, else one, of what lies
    /// between their common start and their common end (whole tokens: five integers each).
    static func delta(from old: [Int], to new: [Int]) -> [LanguageServerResults.SemanticTokensDelta.Edit] {
        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
        if prefix == old.count, prefix == new.count { return [] }
        prefix -= prefix % 5
        var suffix = 0
        while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        suffix -= suffix % 5
        return [
            .init(
                start: prefix,
                deleteCount: old.count - prefix - suffix,
                data: Array(new[prefix..<(new.count - suffix)])
            )
        ]
    }
}

/// The last semantic tokens sent for the documents asked about most recently, for deltas: at most
/// ``capacity`` documents (a delta asked against a result no longer kept gets the whole result).
struct SemanticTokenStore {
    static let capacity = 4

    private var results: [(uri: String, id: String, data: [Int])] = []
    private var counter = 0

    /// Keeps `data` as the newest result for `uri`; its id.
    mutating func record(_ data: [Int], for uri: String) -> String {
        counter += 1
        let id = String(counter)
        results.removeAll { $0.uri == uri }
        results.append((uri, id, data))
        if results.count > Self.capacity { results.removeFirst(results.count - Self.capacity) }
        return id
    }

    /// The result `id` of `uri`, if it is the one kept.
    func data(of uri: String, id: String) -> [Int]? {
        results.last { $0.uri == uri && $0.id == id }?.data
    }

    mutating func forget(_ uri: String) {
        results.removeAll { $0.uri == uri }
    }
}
