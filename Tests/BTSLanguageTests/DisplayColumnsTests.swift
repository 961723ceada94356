import BTSTerminalText
import BooksTrackSupport
import TestSupport
import Testing

@testable import BTSLanguage

/// The snippet walker over UTF-8 bytes cuts, prints and measures characters exactly as iterating
/// the `String` and asking `DisplayWidth` does (what the renderer did before, a Character at a time).
@Suite(.onWorkThreads) struct DisplayColumnsTests {
    /// Pieces that join their neighbours into one character (marks, ZWJ, emoji modifiers, regional
    /// indicators, Hangul jamo, CR LF, prepended marks) beside ones that never do.
    static let pieces: [String] = [
        "a", "Z", " ", "\t", "\r", "\n", "\r\n", "\u{0}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9F}", "\u{AD}", "©", "é",
        "ÿ", "ʰ", "\u{2FF}", "\u{300}", "\u{301}", "\u{36F}", "\u{200D}", "\u{FE0F}", "\u{20E3}", "👍", "🏽", "🇫", "🇷",
        "\u{1100}", "\u{1161}", "\u{11A8}", "가", "\u{0915}", "\u{094D}", "\u{0600}", "\u{0903}", "\u{FFFD}", "三", "📚",
        "\u{202E}", "\u{2066}", "e\u{301}", "#", "1",
    ]

    static func printed(_ step: DisplayColumns.Step) -> String {
        switch step {
        case .ascii(let byte): return String(Unicode.Scalar(byte))
        case .asciiRun(let start, let count): return "\(count) bytes from \(start)"
        case .tab: return "\t"
        case .simple(let printed):
            var bytes: [UInt8] = []
            printed.append(to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        case .complex(let character): return character == "\t" ? "\t" : DisplayWidth.printable(character)
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func walksCharactersAsTheStandardLibraryDoes(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        for _ in 0..<3000 {
            let count = Int.random(in: 0...24, using: &generator)
            let text = (0..<count).map { _ in Self.pieces.randomElement(using: &generator) ?? "" }.joined()
            var expected: [String] = []
            var column = 0
            for character in text {
                column = DisplayWidth.advance(column, by: character)
                let shown = character == "\t" ? "\t" : DisplayWidth.printable(character)
                expected.append("\(character.utf8.count) \(shown.debugDescription) \(column)")
            }
            var walked: [String] = []
            column = 0
            var bytes = text
            bytes.withUTF8 { buffer in
                DisplayColumns.walk(buffer) { step, length in
                    if case .asciiRun(let start, let count) = step {
                        // A character a byte.
                        for byte in buffer[start..<(start + count)] {
                            column += 1
                            walked.append("1 \(String(Unicode.Scalar(byte)).debugDescription) \(column)")
                        }
                        return
                    }
                    column = DisplayColumns.advance(column, by: step)
                    walked.append("\(length) \(Self.printed(step).debugDescription) \(column)")
                }
            }
            #expect(walked == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(DisplayColumns.width(of: text) == DisplayWidth.of(text))
        }
    }

    /// Every simple scalar's table entry is what `DisplayWidth` says of it.
    @Test func theTableIsDisplayWidths() {
        for value in Array(0..<UInt32(0x300)) + [0xFFFD] where value != 0x09 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let character = Character(scalar)
            var bytes = String(character)
            var steps: [DisplayColumns.Step] = []
            bytes.withUTF8 { buffer in DisplayColumns.walk(buffer) { step, _ in steps.append(step) } }
            #expect(steps.count == 1)
            guard let step = steps.first else { continue }
            #expect(Self.printed(step) == DisplayWidth.printable(character), "U+\(String(value, radix: 16))")
            #expect(
                DisplayColumns.advance(3, by: step) == DisplayWidth.advance(3, by: character),
                "U+\(String(value, radix: 16))"
            )
        }
    }
}
