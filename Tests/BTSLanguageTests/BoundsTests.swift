import Foundation
import TestSupport
import Testing

@testable import BTSLanguage

/// Hostile scripts stay cheap to check and to report: diagnostics are capped like clang's
/// `-ferror-limit`, a long line is shown as a window around the caret, and blocks nest at most
/// `BlockBuilder.maxDepth` deep (3,600 levels overflowed the stack: SIGSEGV).
@Suite(.onWorkThreads) struct BoundsTests {
    /// 500 lines, each one error: 20 are shown, then one line saying how many more.
    @Test func twentyDiagnosticsThenOneLineSayingHowManyMore() {
        let text = String(repeating: "end\n", count: 500)
        let result = parsed(text)
        #expect(result.diagnostics.count == 500)
        let rendered = DiagnosticRenderer().render(result.diagnostics, in: result.source)
        #expect(
            rendered.components(separatedBy: "error: 'end' without an open block").count - 1 == DiagnosticRenderer.limit
        )
        #expect(rendered.hasSuffix("t.bts: note: 480 more errors not shown\n"), "\(rendered.suffix(200))")
        // Twenty or fewer: no such line.
        let few = parsed(String(repeating: "end\n", count: 20))
        #expect(!DiagnosticRenderer().render(few.diagnostics, in: few.source).contains("not shown"))
    }

    /// A 48 KB line with an error at its middle: the snippet is a window around the caret, cut
    /// with `…`, and the caret still sits under the error.
    @Test func aLongLineIsShownAsAWindowAroundTheCaret() throws {
        let padding = String(repeating: "a", count: 24_000)
        let text = "echo \(padding) 'open \(padding)"
        let result = parsed(text)
        let diagnostic = try #require(result.diagnostics.first)
        let rendered = DiagnosticRenderer().render(diagnostic, in: result.source)
        #expect(rendered.utf8.count < 1_000, "\(rendered.utf8.count) bytes")
        let lines = rendered.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("t.bts:1:\(24_007): error: "), "\(lines[0])")
        let snippet = lines[1]
        let caretLine = lines[2]
        #expect(snippet.hasPrefix("  1 | …a"))
        #expect(snippet.hasSuffix("a…"))
        // The caret points at the quote.
        let caretColumn = try #require(caretLine.firstIndex(of: "^"))
        let offset = caretLine.distance(from: caretLine.startIndex, to: caretColumn)
        let under = snippet[snippet.index(snippet.startIndex, offsetBy: offset)]
        #expect(under == "'", "\(snippet)\n\(caretLine)")
    }

    @Test func aWindowNeverCutsACharacterInTwo() {
        let text = "echo " + String(repeating: "é", count: 2_000) + " 'open"
        let result = parsed(text)
        let rendered = DiagnosticRenderer().render(result.diagnostics, in: result.source)
        #expect(!rendered.contains("\u{FFFD}"))
    }

    @Test func aLongMessageIsCut() {
        let word = String(repeating: "x", count: 10_000)
        let source = SourceFile(name: "t.bts", text: word)
        let rendered = DiagnosticRenderer().render(
            Diagnostic.error(
                "unknown command '\(word)'",
                rule: .unknownCommand,
                at: SourceRange(offset: 0, length: word.utf8.count)
            ),
            in: source
        )
        #expect(rendered.utf8.count < 1_500, "\(rendered.utf8.count) bytes")
    }

    @Test(arguments: ["if x == 1", "for x in 1 2"])
    func blocksNestAtMostMaxDepth(_ opener: String) {
        let depth = 3_600
        let text =
            String(repeating: opener + "\n", count: depth) + "echo deep\n" + String(repeating: "end\n", count: depth)
        let result = parsed(text)
        let allowed = BlockBuilder.maxDepth
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1, "\(errors.prefix(3))")
        #expect(errors.first?.message == "blocks are nested more than \(BlockBuilder.maxDepth) deep")
        // Input already nested too deep is complete: a reader stops asking for more lines.
        #expect(Parser.isComplete(String(repeating: opener + "\n", count: allowed + 1)))
        #expect(!Parser.isComplete(String(repeating: opener + "\n", count: allowed)))
        // As deep as allowed: fine.
        let fine =
            String(repeating: opener + "\n", count: allowed) + "echo deep\n"
            + String(repeating: "end\n", count: allowed)
        #expect(parsed(fine).diagnostics.isEmpty)
    }

    /// 64 KB of junk is parsed and its diagnostics rendered (how fast is the fuzzer's and the
    /// benchmarks' business, not a test's: nothing here reads a clock).
    @Test func sixtyFourKilobytesOfJunkAreChecked() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abc $'\"{}|;\\\n\t-=>#(".utf8)
        let bytes = (0..<65_536).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        let source = SourceFile(name: "junk", text: String(decoding: bytes, as: UTF8.self))
        let result = Parser.parse(source)
        let rendered = DiagnosticRenderer().render(result.diagnostics, in: source)
        #expect(!result.diagnostics.isEmpty)
        #expect(!rendered.isEmpty)
    }
}
