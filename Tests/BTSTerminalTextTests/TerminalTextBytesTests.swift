import BTSTerminalText
import TestSupport
import Testing

/// `TerminalText.containsWork`, which reads UTF-8 8 bytes at a time and looks closer only at the
/// bytes that can start a scalar needing work, answers as asking `needsWork` of every scalar does.
@Suite(.onWorkThreads) struct TerminalTextBytesTests {
    static func expected(_ text: String, exceptLineFeeds: Bool) -> Bool {
        text.unicodeScalars.contains { TerminalText.needsWork($0) && !(exceptLineFeeds && $0 == "\n") }
    }

    /// Every scalar alone: a scalar that needs work whose first byte is not a candidate fails here.
    @Test func everyScalarAlone() {
        var mismatches: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(scalar)
            if TerminalText.containsWork(text) != TerminalText.needsWork(scalar) { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10).map { String($0, radix: 16) })")
        #expect(!TerminalText.containsWork("\n", exceptLineFeeds: true))
        #expect(TerminalText.containsWork("\n"))
    }

    /// The scalars whose first byte is a candidate (C2, D8, E2) and every one that needs work, at
    /// each position of a 24-byte text: across and at the ends of the 8-byte words.
    @Test func atEveryPositionOfTheWords() {
        let values =
            Array(UInt32(0)...0xBF) + Array(UInt32(0x600)...0x63F) + Array(UInt32(0x2000)...0x207F)
            + [0x2400, 0x240D, 0x2421, 0x2026, 0xFFFD, 0x1F600]
        for value in values {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for position in 0..<24 {
                for padding in ["a", "\n", "é"] {
                    let text =
                        String(repeating: padding, count: position) + String(scalar)
                        + String(repeating: "b", count: 24 - position)
                    for exceptLineFeeds in [false, true] {
                        #expect(
                            TerminalText.containsWork(text, exceptLineFeeds: exceptLineFeeds)
                                == Self.expected(text, exceptLineFeeds: exceptLineFeeds),
                            "U+\(String(value, radix: 16)) after \(position) \(padding.debugDescription)"
                        )
                    }
                }
            }
        }
    }

    /// Random texts of such pieces, as rendered diagnostics are.
    @Test func randomTexts() {
        let pieces = [
            "a", " ", "\n", "\t", "\r", "\u{1B}", "\u{7F}", "\u{85}", "\u{9F}", "\u{A0}", "é", "\u{61C}", "\u{60C}",
            "\u{200E}", "\u{2010}", "\u{202E}", "\u{2066}", "\u{2069}", "\u{206A}", "\u{2026}", "\u{241B}", "三", "📚",
        ]
        var state: UInt64 = 7
        for _ in 0..<5000 {
            var text = ""
            let count = Int(state % 40)
            for _ in 0..<count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += pieces[Int((state >> 33) % UInt64(pieces.count))]
            }
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for exceptLineFeeds in [false, true] {
                #expect(
                    TerminalText.containsWork(text, exceptLineFeeds: exceptLineFeeds)
                        == Self.expected(text, exceptLineFeeds: exceptLineFeeds),
                    "\(text.unicodeScalars.map { String($0.value, radix: 16) })"
                )
            }
        }
    }
}
