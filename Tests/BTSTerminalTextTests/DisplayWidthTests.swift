import Testing

@testable import BTSTerminalText

/// One display width for the whole shell: what a character takes on a terminal when printed as it is.
@Suite struct DisplayWidthTests {
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
    @Test func snippetsCountWhatTheyPrint() {
        #expect(DisplayWidth.of("a\u{1}b") == 3)
        #expect(DisplayWidth.of("\tx") == 9)
        #expect(DisplayWidth.of("e\u{301}三") == 3)
        #expect(DisplayWidth.advance(0, by: "\u{7F}") == 1)
    }
}
