import TestSupport
import Testing

@testable import BTSTerminalText

/// Prose on a terminal is broken between words, never inside one, at the width the terminal shows.
@Suite(.onWorkThreads) struct ProseWrapTests {
    /// The visible width of a line: its escape sequences take no columns.
    static func visibleWidth(_ line: String) -> Int {
        let characters = Array(line)
        var index = 0
        var width = 0
        while index < characters.count {
            if characters[index] == "\u{1B}" {
                index = ProseWrap.escapeEnd(in: characters, from: index)
                continue
            }
            width = DisplayWidth.advance(width, by: characters[index])
            index += 1
        }
        return width
    }

    /// The words of `text` without its escape sequences (a style change alone is no word).
    static func words(_ text: String) -> [String] {
        let characters = Array(text)
        var plain = ""
        var index = 0
        while index < characters.count {
            if characters[index] == "\u{1B}" {
                index = ProseWrap.escapeEnd(in: characters, from: index)
                continue
            }
            plain.append(characters[index])
            index += 1
        }
        return plain.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }

    @Test func aLineThatFitsIsLeftAsItIs() {
        #expect(ProseWrap.wrap("library: 3 created", width: 40) == "library: 3 created")
        #expect(ProseWrap.wrap("  two  spaces  kept ", width: 40) == "  two  spaces  kept ")
        #expect(ProseWrap.wrap("exactly ten", width: 11) == "exactly ten")
        #expect(ProseWrap.wrap("", width: 10) == "")
        #expect(ProseWrap.wrap("first\n\nthird", width: 10) == "first\n\nthird", "the text's own breaks stay")
    }

    @Test func aLongLineBreaksBetweenWords() {
        let text = "Goodreads export, 12 books: library 9 created, 2 updated, 1 already there"
        let wrapped = ProseWrap.wrap(text, width: 30)
        #expect(
            wrapped == """
                Goodreads export, 12 books:
                library 9 created, 2 updated,
                1 already there
                """
        )
        #expect(Self.words(wrapped) == Self.words(text))
    }

    @Test func aWordWiderThanTheWidthStandsWholeOnItsOwnLine() {
        let url = "https://example.com/a/very/long/path/to/some/file.csv"
        let wrapped = ProseWrap.wrapLine("see \(url) for the rows", width: 20)
        #expect(wrapped == ["see", url, "for the rows"])
        #expect(ProseWrap.wrapLine(url, width: 10) == [url])
    }

    @Test func continuationLinesKeepTheFirstLinesIndent() {
        let wrapped = ProseWrap.wrapLine("    row 2 'Dun' → Dune (Dune Chronicles #1), Frank Herbert", width: 24)
        #expect(wrapped == ["    row 2 'Dun' → Dune", "    (Dune Chronicles", "    #1), Frank Herbert"])
        for line in wrapped { #expect(DisplayWidth.of(line) <= 24) }
        // An indent of half the width or more is not repeated: the words would have no room.
        #expect(ProseWrap.wrapLine("          one two three", width: 16) == ["          one", "two three"])
    }

    @Test func stylesTakeNoColumns() {
        let dim = ANSIStyle.dim.rawValue
        let reset = ANSIStyle.reset.rawValue
        let plain = "alpha beta gamma delta epsilon"
        let styled = dim + plain + reset
        let lines = ProseWrap.wrapLine(styled, width: 16)
        #expect(lines == [dim + "alpha beta gamma", "delta epsilon" + reset])
        #expect(ProseWrap.wrapLine(plain, width: 16) == ["alpha beta gamma", "delta epsilon"])
        // A line whose escapes alone make it look too wide is left whole.
        #expect(
            ProseWrap.wrap(ANSIStyle.red.apply("error:", enabled: true) + " one two", width: 14)
                == ANSIStyle.red.apply("error:", enabled: true) + " one two"
        )
        // A style change on its own between spaces stays where it is.
        #expect(ProseWrap.wrapLine("one two \(reset) three", width: 7) == ["one two\(reset)", "three"])
    }

    @Test func wideCharactersTakeTwoColumns() {
        let wrapped = ProseWrap.wrapLine("日本語 日本語 日本語", width: 13)
        #expect(wrapped == ["日本語 日本語", "日本語"])
        let emoji = ProseWrap.wrapLine("📚📚 📚📚 📚📚", width: 9)
        #expect(emoji == ["📚📚 📚📚", "📚📚"])
        for line in wrapped + emoji { #expect(DisplayWidth.of(line) <= 13) }
    }

    @Test func noWidthNoWrapping() {
        #expect(ProseWrap.wrap("one two three", width: 0) == "one two three")
        #expect(ProseWrap.wrap("one two three", width: -4) == "one two three")
        #expect(ProseWrap.wrapLine("one two three", width: 1) == ["one", "two", "three"])
    }

    /// Any text: every line fits unless it is one word, the words and their order are kept, and
    /// the text's own line breaks are kept.
    @Test func theWordsAreKeptAndEveryLineFits() {
        let pieces = [
            "a", "word", "longerword", " ", " ", "  ", "日本", "📚", "é", "e\u{301}", "\n",
            ANSIStyle.bold.rawValue, ANSIStyle.reset.rawValue, "https://example.com/x/y/z",
        ]
        var state: UInt64 = 11
        for _ in 0..<2_000 {
            var text = ""
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for _ in 0..<Int(state >> 58) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += pieces[Int(state >> 33) % pieces.count]
            }
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let width = 1 + Int(state >> 60)
            let wrapped = ProseWrap.wrap(text, width: width)
            #expect(Self.words(wrapped) == Self.words(text), "\(text.debugDescription) at \(width)")
            #expect(
                wrapped.split(separator: "\n", omittingEmptySubsequences: false).count
                    >= text.split(separator: "\n", omittingEmptySubsequences: false).count
            )
            for line in wrapped.split(separator: "\n") where Self.visibleWidth(String(line)) > width {
                let lineWords = line.split(separator: " ").filter { Self.visibleWidth(String($0)) > 0 }
                #expect(lineWords.count <= 1, "\(line.debugDescription) at \(width) from \(text.debugDescription)")
            }
        }
    }
}
