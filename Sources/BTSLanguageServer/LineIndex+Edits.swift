/// One change of `textDocument/didChange`: the text between two LSP positions replaced by `text`
/// (no range: the whole text).
package struct TextChange: Sendable, Hashable {
    /// A line and a character offset in UTF-16 code units, as LSP counts them.
    package struct Position: Sendable, Hashable {
        package var line: Int
        package var character: Int

        package init(line: Int, character: Int) {
            self.line = line
            self.character = character
        }
    }

    /// The replaced text's ends (as a client sends them: the end may come before the start).
    package struct Span: Sendable, Hashable {
        package var start: Position
        package var end: Position

        package init(start: Position, end: Position) {
            self.start = start
            self.end = end
        }
    }

    package var range: Span?
    package var text: String

    package init(range: Span?, text: String) {
        self.range = range
        self.text = text
    }
}

extension LineIndex {
    /// The text after `changes`, applied in order (each one's positions are in the text the ones
    /// before it left), with its index. The changes after the last whole-text one are made in one
    /// buffer with a gap at the last edit, so a batch of edits moves the bytes between them, not
    /// the whole text for each; the line index is kept in step the same way and laid out once.
    package func applying(_ changes: [TextChange]) -> LineIndex {
        var base = self
        var rest = changes[...]
        if let whole = changes.lastIndex(where: { $0.range == nil }) {
            base = LineIndex(changes[whole].text)
            rest = changes[(whole + 1)...]
        }
        guard !rest.isEmpty else { return base }
        var buffer = EditBuffer(base)
        for change in rest {
            guard let span = change.range else { continue }
            buffer.replace(span, with: Array(change.text.utf8))
        }
        return buffer.index()
    }
}

/// A text being edited: its UTF-8 bytes with a gap at the last edit (so an edit near the last one
/// moves only the bytes between them) and its line starts kept the same way: those from `split` on
/// are stored less `shift`, the bytes an edit added or removed before them, so an edit updates only
/// the line starts between it and the last one. Pure.
struct EditBuffer {
    /// The bytes before the gap, the gap, the bytes after it.
    private var storage: [UInt8]
    private var gapStart: Int
    private var gapEnd: Int
    /// Each line's start: as it is before `split`, less `shift` from `split` on.
    private var starts: [Int]
    private var split: Int
    private var shift = 0

    init(_ index: LineIndex) {
        storage = index.bytes
        gapStart = storage.count
        gapEnd = storage.count
        starts = index.lineStarts
        split = starts.count
    }

    /// The text's length in bytes.
    var count: Int { storage.count - (gapEnd - gapStart) }

    var lineCount: Int { starts.count }

    /// Where line `line` starts.
    func lineStart(_ line: Int) -> Int { line < split ? starts[line] : starts[line] + shift }

    /// The byte at `offset` of the text.
    func byte(_ offset: Int) -> UInt8 { offset < gapStart ? storage[offset] : storage[offset + gapEnd - gapStart] }

    /// The byte offset of an LSP position, as ``LineIndex/offset(line:character:)`` finds it.
    func offset(_ position: TextChange.Position) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < lineCount else { return count }
        let start = lineStart(position.line)
        var end = position.line + 1 < lineCount ? lineStart(position.line + 1) - 1 : count
        if end > start, byte(end - 1) == 13 { end -= 1 }
        return LineIndex.offset(from: start, to: max(start, end), units: position.character, byte)
    }

    /// Replaces the text of `span` (its ends clamped to the text, the end to no less than the start).
    mutating func replace(_ span: TextChange.Span, with text: [UInt8]) {
        let start = min(offset(span.start), count)
        let end = max(start, min(offset(span.end), count))
        replace(start, end, with: text)
    }

    /// Replaces bytes `start..<end` with `text`.
    mutating func replace(_ start: Int, _ end: Int, with text: [UInt8]) {
        // The lines starting inside the replaced bytes (after a line feed in them) go; the text's come.
        let first = firstLine(after: start)
        let past = firstLine(after: end)
        moveSplit(to: first)
        var added: [Int] = []
        for (position, byte) in text.enumerated() where byte == 10 { added.append(start + position + 1) }
        starts.replaceSubrange(first..<past, with: added)
        split = first + added.count
        shift += text.count - (end - start)
        moveGap(to: start)
        gapEnd += end - start
        insert(text)
    }

    /// The text and its line index, laid out.
    mutating func index() -> LineIndex {
        moveSplit(to: starts.count)
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        bytes += storage[..<gapStart]
        bytes += storage[gapEnd...]
        return LineIndex(bytes: bytes, lineStarts: starts)
    }

    /// The first line starting after byte `offset` (the line count when none does).
    private func firstLine(after offset: Int) -> Int {
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if lineStart(middle) <= offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Stores the line starts before `target` as they are and the others less `shift`.
    private mutating func moveSplit(to target: Int) {
        if split < target {
            for line in split..<target { starts[line] += shift }
        } else {
            for line in target..<split { starts[line] -= shift }
        }
        split = target
    }

    /// Moves the gap to byte `offset` of the text.
    private mutating func moveGap(to offset: Int) {
        guard offset != gapStart else { return }
        let (gapStart, gapEnd) = (self.gapStart, self.gapEnd)
        storage.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            if offset < gapStart {
                // The bytes between the offset and the gap go to the gap's end.
                let moved = gapStart - offset
                (base + gapEnd - moved).copyMemory(from: base + offset, byteCount: moved)
            } else {
                // The bytes after the gap, up to the offset, go to its start.
                let moved = offset - gapStart
                (base + gapStart).copyMemory(from: base + gapEnd, byteCount: moved)
            }
        }
        self.gapEnd = gapEnd + offset - gapStart
        self.gapStart = offset
    }

    /// Puts `text` at the gap's start (growing the storage when the gap is too small).
    private mutating func insert(_ text: [UInt8]) {
        guard !text.isEmpty else { return }
        if gapEnd - gapStart < text.count {
            let tail = storage.count - gapEnd
            let capacity = max(2 * storage.count, count + text.count + 4096)
            var grown = [UInt8](repeating: 0, count: capacity)
            grown.replaceSubrange(0..<gapStart, with: storage[..<gapStart])
            grown.replaceSubrange((capacity - tail)..<capacity, with: storage[gapEnd...])
            storage = grown
            gapEnd = capacity - tail
        }
        storage.replaceSubrange(gapStart..<(gapStart + text.count), with: text)
        gapStart += text.count
    }
}
