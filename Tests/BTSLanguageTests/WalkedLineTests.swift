import BTSLanguage
import BTSTerminalText
import BooksTrackSupport
import TestSupport
import Testing

/// Rendering several diagnostics walks a snippet line once for all of those in a row on it, and
/// reads their columns and carets from that walk: the result is what rendering each alone gives,
/// wherever the ranges start and end (inside a character of several scalars too).
@Suite(.onWorkThreads) struct WalkedLineTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func aListRendersAsEachAlone(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        for round in 0..<800 {
            // Short lines, and now and then one longer than a snippet's window.
            let pieces = round % 8 == 0 ? 300 : Int.random(in: 0...30, using: &generator)
            let text = (0..<pieces).map { _ in DisplayColumnsTests.pieces.randomElement(using: &generator) ?? "" }
                .joined()
            let source = SourceFile(name: "t", text: text)
            let count = source.bytes.count
            var diagnostics: [Diagnostic] = []
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let offset = Int.random(in: 0...count, using: &generator)
                let length = Int.random(in: 0...8, using: &generator)
                let note = Diagnostic.Note(
                    "here",
                    range: SourceRange(offset: Int.random(in: 0...count, using: &generator), length: 1)
                )
                diagnostics.append(
                    .error("bad", rule: .unknownCommand, at: SourceRange(offset: offset, length: length), notes: [note])
                )
            }
            for renderer in [DiagnosticRenderer(), DiagnosticRenderer(colored: true, showsPlace: false)] {
                let alone = diagnostics.map { renderer.render($0, in: source) }.joined()
                #expect(
                    renderer.render(diagnostics, in: source) == alone,
                    "\(text.unicodeScalars.map { String($0.value, radix: 16) }) \(diagnostics.map(\.range))"
                )
            }
        }
    }
}
