import BTSTerminalText
import TestSupport
import Testing

/// One rule for what may reach a terminal: the diagnostics' and the prompt's `DisplayWidth.printable`
/// and the shell's `TerminalText.sanitize` neutralise exactly the same scalars the same way (they
/// differ only where `sanitize` keeps a line break or tab on purpose).
@Suite(.onWorkThreads) struct SanitiserAgreementTests {
    static let probes: [Unicode.Scalar] =
        (0...0x2100).compactMap(Unicode.Scalar.init)
        + [0x061C, 0x200E, 0x200F, 0x202A, 0x202E, 0x2066, 0x2069, 0xFEFF, 0x1F600].compactMap(Unicode.Scalar.init)

    @Test func printableAndSanitizeAgreeOnEveryScalar() {
        for scalar in Self.probes where scalar != "\n" && scalar != "\r" && scalar != "\t" {
            let text = String(scalar)
            #expect(
                DisplayWidth.printable(text: text) == TerminalText.sanitize(text),
                "U+\(String(scalar.value, radix: 16))"
            )
            let shown = DisplayWidth.printable(text: text).unicodeScalars
            #expect(!shown.contains(where: TerminalText.needsWork), "U+\(String(scalar.value, radix: 16))")
        }
    }

    @Test func theStylesAreSGRSequences() {
        for style in ANSIStyle.allCases {
            #expect(style.rawValue.hasPrefix("\u{1B}[") && style.rawValue.hasSuffix("m"))
            #expect(style.apply("x", enabled: true) == style.rawValue + "x" + ANSIStyle.reset.rawValue)
            #expect(style.apply("x", enabled: false) == "x")
        }
    }
}
