import BTSShell
import BTSTerminal
import BooksTrackSupport
import Testing

@Suite("Completion engine: fuzz", .onWorkThreads)
struct CompletionFuzzTests {
    /// Random lines built from bts fragments and odd characters, with random cursors: no crash,
    /// the range lies within the text before the cursor, and the editor's view agrees.
    @Test("random lines and cursors never crash and give sane ranges")
    func randomLines() {
        let engine = CompletionFixtures.engine(CompletionFixtures.fileContext())
        let fragments = [
            "search", " ", "title", "isbn", "--limit", "--li", "-", "=", "\"", "'", "\\", "$", "${", "}",
            ";", "#", "dune", "978", "-0-", "café", "日本", "👩‍👩‍👧", "\n", "import", "~/", "/", "set",
            "watch", "enrich", "--from", "--output=", "similar", "help", "\t", "x", "Ü",
        ]
        var rng = SplitMix64(seed: 7)
        for _ in 0..<3_000 {
            var line = ""
            for _ in 0..<Int(rng.next() % 9) { line += fragments[Int(rng.next() % UInt64(fragments.count))] }
            let length = line.utf8.count
            let cursor = length == 0 ? 0 : Int(rng.next() % UInt64(length + 1))
            let answer = engine.answer(line: line, cursorOffset: cursor)
            #expect(
                answer.range.lowerBound >= 0 && answer.range.upperBound <= cursor || answer.candidates.isEmpty,
                "line \(line.debugDescription) cursor \(cursor) range \(answer.range)"
            )
            if let display = answer.display { #expect(display.count == answer.candidates.count) }
            // Through the editor's String.Index interface (cursor on a character boundary).
            let characterCursor = line.index(line.startIndex, offsetBy: Int(rng.next() % UInt64(line.count + 1)))
            let request = CompletionRequest(line: line, cursor: characterCursor)
            let completion = engine.completion(for: request)
            #expect(completion.replacementRange.upperBound <= line.endIndex)
            _ = CompletionEdit.decide(request: request, completion: completion)
        }
    }
}
