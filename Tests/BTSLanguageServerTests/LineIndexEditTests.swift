import Testing

@testable import BTSLanguageServer

/// A batch of edits applied in one buffer gives the text (and line index) that applying each to
/// the whole text gives, UTF-16 positions and all.
@Suite("document edits")
struct LineIndexEditTests {
    /// Text each edit is cut from and pasted in: several lines, CR LF, a lone CR, 2-byte and
    /// 4-byte (surrogate pair) characters.
    static let pieces = ["a", "bc", " ", "é", "📚", "\n", "\r\n", "\r", "serch x\n", ""]

    /// The text after `change`, applied to the whole text as the server once did: its positions
    /// through a fresh index, the bytes spliced, the index built again.
    static func naive(_ text: String, _ change: TextChange) -> String {
        guard let span = change.range else { return change.text }
        let index = LineIndex(text)
        let start = min(index.offset(line: span.start.line, character: span.start.character), index.bytes.count)
        let end = max(start, min(index.offset(line: span.end.line, character: span.end.character), index.bytes.count))
        return String(decoding: index.bytes[..<start], as: UTF8.self) + change.text
            + String(decoding: index.bytes[end...], as: UTF8.self)
    }

    static func position(_ generator: inout Seeded, lines: Int) -> TextChange.Position {
        TextChange.Position(
            line: Int.random(in: -1...(lines + 1), using: &generator),
            character: Int.random(in: -1...12, using: &generator)
        )
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func batchesOfEditsGiveWhatEditingTheWholeTextGives(seed: UInt64) {
        var generator = Seeded(seed: seed)
        for _ in 0..<300 {
            var text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                Self.pieces.randomElement(using: &generator) ?? ""
            }.joined()
            let index = LineIndex(text)
            var changes: [TextChange] = []
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let lines = LineIndex(text).lineCount
                let inserted = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                    Self.pieces.randomElement(using: &generator) ?? ""
                }.joined()
                let whole = Int.random(in: 0..<30, using: &generator) == 0
                let change = TextChange(
                    range: whole
                        ? nil
                        : TextChange.Span(
                            start: Self.position(&generator, lines: lines),
                            end: Self.position(&generator, lines: lines)
                        ),
                    text: inserted
                )
                changes.append(change)
                text = Self.naive(text, change)
            }
            let applied = index.applying(changes)
            let expected = LineIndex(text)
            #expect(applied.bytes == expected.bytes, "\(changes)")
            #expect(applied.lineStarts == expected.lineStarts, "\(changes)")
        }
    }

    /// 20,000 edits of one `didChange`, one per line (in order and in reverse, as editors send a
    /// change at every cursor): the text each gives.
    @Test func twentyThousandEditsInOneChange() {
        let lines = 20_000
        let index = LineIndex(String(repeating: "serch x\n", count: lines))
        func edit(_ line: Int) -> TextChange {
            TextChange(
                range: TextChange.Span(
                    start: TextChange.Position(line: line, character: 0),
                    end: TextChange.Position(line: line, character: 5)
                ),
                text: "search"
            )
        }
        let expected = LineIndex(String(repeating: "search x\n", count: lines))
        let forward = index.applying((0..<lines).map(edit))
        #expect(forward.bytes == expected.bytes && forward.lineStarts == expected.lineStarts)
        let backward = index.applying((0..<lines).reversed().map(edit))
        #expect(backward.bytes == expected.bytes && backward.lineStarts == expected.lineStarts)
        // Lines joined and split: each line's break removed, then put back as two.
        let joined = index.applying(
            (0..<(lines - 1)).reversed().map { line in
                TextChange(
                    range: TextChange.Span(
                        start: TextChange.Position(line: line, character: 7),
                        end: TextChange.Position(line: line + 1, character: 0)
                    ),
                    text: "\n\n"
                )
            }
        )
        #expect(joined.lineCount == 2 * lines)
        #expect(joined.position(of: joined.bytes.count) == (2 * lines - 1, 0))
    }
}

/// A seeded generator (SplitMix64's steps), so a failing round can be run again.
struct Seeded: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
