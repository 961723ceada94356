import BTSTerminalText
import TestSupport
import Testing

/// One display width for the whole shell: what a character takes on a terminal when printed as it is.
@Suite(.onWorkThreads) struct DisplayWidthTests {
    @Test func charactersAsTheTerminalShowsThem() {
        #expect(DisplayWidth.width(of: "a") == 1)
        #expect(DisplayWidth.width(of: "\u{1}") == 0)
        #expect(DisplayWidth.width(of: "\u{7F}") == 0)
        #expect(DisplayWidth.width(of: "\u{9B}") == 0)
        #expect(DisplayWidth.width(of: "\u{301}") == 0)  // a combining mark on its own
        #expect(DisplayWidth.width(of: "e\u{301}") == 1)  // with its base: one column
        #expect(DisplayWidth.width(of: "\u{200B}") == 0)  // a format character
        #expect(DisplayWidth.width(of: "三") == 2)
        #expect(DisplayWidth.width(of: "📚") == 2)
        #expect(DisplayWidth.width(of: "\u{30000}") == 2)
    }

    /// Diagnostic snippets print control characters as Control Pictures: one column each.
    /// The ASCII run is counted byte by byte (a 64 KB line was measured a Character at a time for
    /// each diagnostic): it must agree with the Character walk, marks and CR LF after ASCII included.
    @Test func theASCIIRunAgreesWithTheCharacterWalk() {
        let pieces = [
            "a", " ", "\t", "é", "e\u{301}", "\r\n", "\u{1B}", "中", "👍🏽", "\u{202E}", "~", "\t\u{301}", "x\u{0}",
        ]
        var state: UInt64 = 7
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int(state % 12) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += pieces[Int(state >> 33) % pieces.count]
            }
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let walked = text.reduce(0) { DisplayWidth.advance($0, by: $1) }
            #expect(DisplayWidth.of(text) == walked, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func snippetsCountWhatTheyPrint() {
        #expect(DisplayWidth.of("a\u{1}b") == 3)
        #expect(DisplayWidth.of("\tx") == 9)
        #expect(DisplayWidth.of("e\u{301}三") == 3)
        #expect(DisplayWidth.advance(0, by: "\u{7F}") == 1)
    }
}
