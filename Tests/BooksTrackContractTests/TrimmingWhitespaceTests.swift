import BooksTrackContract
import BooksTrackSupport
import TestSupport
import Testing

/// The byte-wise trim agrees with trimming by `Character.isWhitespace`, on ASCII, Unicode spaces,
/// combining marks next to spaces, CR LF and fuzzed strings.
@Suite(.onWorkThreads) struct TrimmingWhitespaceTests {
    static func reference(_ text: String) -> Substring {
        var s = text[...]
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return s
    }

    @Test func agreesWithTheCharacterDefinition() {
        let pool: [String] = [
            " ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{2003}", "\u{3000}", "\u{200B}",
            "\u{301}", "e", "é", "e\u{301}", "x", "1", "ms", "日", "😀", ",", "\u{7F}", "\u{1F}",
        ]
        var rng = SplitMix64(seed: 20_261_124)
        var cases = pool.flatMap { a in pool.map { b in a + b } }
        for _ in 0..<20_000 {
            cases.append(
                (0..<Int.random(in: 0...6, using: &rng)).map { _ in pool.randomElement(using: &rng) ?? "" }.joined()
            )
        }
        for text in cases {
            let trimmed = text.trimmingWhitespace()
            #expect(trimmed == Self.reference(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(text[...].trimmingWhitespace() == trimmed)
        }
    }

    /// `allUTF8` reads the same bytes as `utf8.allSatisfy`, small and large strings, ASCII or not.
    @Test func allUTF8AgreesWithIteratingUTF8() {
        let tests: [(UInt8) -> Bool] = [{ $0 < 0x80 }, { $0 >= 0x20 && $0 < 0x7F }, { $0 != UInt8(ascii: ":") }]
        for text in [
            "", "a", "Bearer abc.def", "caf\u{E9}", "a:b", "\t", String(repeating: "x", count: 40),
            String(repeating: "x", count: 40) + ":", "😀", String(repeating: "é", count: 20), "x\u{0}y",
        ] {
            for test in tests {
                #expect(text.allUTF8(test) == text.utf8.allSatisfy(test), "\(text.debugDescription)")
            }
        }
        #expect("Bearer abc.def".allUTF8 { $0 >= 0x20 && $0 < 0x7F })
        #expect(!"caf\u{E9}".allUTF8 { $0 < 0x80 })
    }
}
