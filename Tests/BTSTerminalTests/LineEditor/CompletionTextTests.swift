import BooksTrackSupport
import Foundation
import Testing

@testable import BTSTerminal

@Suite("Completion text")
struct CompletionTextTests {
    @Test("longest common prefix, by character")
    func commonPrefix() {
        #expect(CompletionText.longestCommonPrefix([]) == "")
        #expect(CompletionText.longestCommonPrefix(["search"]) == "search")
        #expect(CompletionText.longestCommonPrefix(["search", "semantic", "set"]) == "se")
        #expect(CompletionText.longestCommonPrefix(["café", "cafétéria"]) == "café")
        #expect(CompletionText.longestCommonPrefix(["café", "cafe"]) == "caf")
        // Decomposed é (e + U+0301) never splits: "cafe" + accent vs "cafe" + x shares "caf".
        #expect(CompletionText.longestCommonPrefix(["cafe\u{301}s", "cafex"]) == "caf")
        // Canonically equivalent spellings compare equal.
        #expect(CompletionText.longestCommonPrefix(["caf\u{E9}1", "cafe\u{301}2"]) == "caf\u{E9}")
        #expect(CompletionText.longestCommonPrefix(["日本語", "日本人"]) == "日本")
        #expect(CompletionText.longestCommonPrefix(["👩‍👩‍👧 a", "👩‍👩‍👦 b"]) == "")
        #expect(CompletionText.longestCommonPrefix(["abc", ""]) == "")
    }

    @Test("display width ignores escapes and counts wide characters twice")
    func displayWidth() {
        #expect(CompletionText.displayWidth("search") == 6)
        #expect(CompletionText.displayWidth("\u{1B}[1;32mbts\u{1B}[0m> ") == 5)
        #expect(CompletionText.displayWidth("café") == 4)
        #expect(CompletionText.displayWidth("cafe\u{301}") == 4)
        #expect(CompletionText.displayWidth("日本") == 4)
        #expect(CompletionText.displayWidth("☕") == 2)
        #expect(CompletionText.displayWidth("\u{1B}]0;title\u{07}x") == 1)
    }

    @Test("columns fill top to bottom and fit the width")
    func columns() {
        let items = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"]
        let lines = CompletionText.columns(items, width: 30)
        #expect(
            lines == [
                "alpha  gamma  epsilon  eta",
                "beta   delta  zeta",
            ]
        )
        for line in lines { #expect(CompletionText.displayWidth(line) <= 30) }
        #expect(CompletionText.columns(items, width: 200) == ["alpha  beta  gamma  delta  epsilon  zeta  eta"])
        #expect(CompletionText.columns(items, width: 7) == items)
        #expect(CompletionText.columns([], width: 80) == [])
    }

    @Test("over-wide items are cut with an ellipsis; wide characters align")
    func narrowAndWide() {
        #expect(CompletionText.columns(["abcdefghij"], width: 5) == ["abcd…"])
        let lines = CompletionText.columns(["日本語", "ab", "c", "d"], width: 12)
        #expect(lines == ["日本語  c", "ab      d"])
    }

    @Test("layout invariants hold for random inputs", arguments: [7, 8, 9])
    func layoutFuzz(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let pieces = ["a", "bc", "é", "日", "xyz", "search", "☕"]
        for _ in 0..<300 {
            let count = Int.random(in: 0..<40, using: &generator)
            let items = (0..<count).map { _ in
                (0..<Int.random(in: 1..<6, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "a"
                }
                .joined()
            }
            let width = Int.random(in: 1..<120, using: &generator)
            let lines = CompletionText.columns(items, width: width)
            #expect(lines.count <= items.count)
            #expect(lines.allSatisfy { CompletionText.displayWidth($0) <= max(width, 1) })
            let shown = lines.flatMap { $0.split(separator: " ") }.count
            #expect(shown == items.count)
        }
    }

    @Test("a sole candidate replaces the word, several insert the common prefix and list")
    func completionEdit() {
        let line = "search sem"
        let request = CompletionRequest(line: line, cursor: line.endIndex)
        let word = line.index(line.startIndex, offsetBy: 7)..<line.endIndex
        let sole = CompletionEdit.decide(
            request: request,
            completion: CompletionProposal(
                replacementRange: word,
                candidates: ["semantic"]
            )
        )
        #expect(sole == CompletionEdit(replacement: "semantic ", listing: []))
        let noSpace = CompletionEdit.decide(
            request: request,
            completion: CompletionProposal(
                replacementRange: word,
                candidates: ["semantic/"],
                appendSpace: false
            )
        )
        #expect(noSpace.replacement == "semantic/")
        let several = CompletionEdit.decide(
            request: request,
            completion: CompletionProposal(
                replacementRange: word,
                candidates: ["semantics", "semantic"],
                display: ["semantics (x)", "semantic (y)"]
            )
        )
        #expect(several == CompletionEdit(replacement: "semantic", listing: ["semantics (x)", "semantic (y)"]))
        let nothingToAdd = CompletionEdit.decide(
            request: request,
            completion: CompletionProposal(
                replacementRange: word,
                candidates: ["sem1", "sem2"]
            )
        )
        #expect(nothingToAdd == CompletionEdit(replacement: nil, listing: ["sem1", "sem2"]))
        let fuzzy = CompletionEdit.decide(
            request: request,
            completion: CompletionProposal(
                replacementRange: word,
                candidates: ["xsem", "ysem"]
            )
        )
        #expect(fuzzy.replacement == nil)
        let none = CompletionEdit.decide(request: request, completion: .none(for: request))
        #expect(none == CompletionEdit(replacement: nil, listing: []))
        #expect(request.cursorUTF8Offset == 10)
    }
}

@Suite("Prompt escapes")
struct PromptEscapesTests {
    @Test("escape sequences are bracketed with the marker")
    func bracket() {
        #expect(PromptEscapes.bracket("bts> ") == "bts> ")
        #expect(
            PromptEscapes.bracket("\u{1B}[1;32mbts\u{1B}[0m> ")
                == "\u{1}\u{1B}[1;32m\u{1}bts\u{1}\u{1B}[0m\u{1}> "
        )
        #expect(PromptEscapes.bracket("\u{1B}]0;t\u{07}x") == "\u{1}\u{1B}]0;t\u{07}\u{1}x")
        #expect(PromptEscapes.bracket("a\u{1}b") == "ab")
        #expect(PromptEscapes.bracket("cut\u{1B}[1") == "cut\u{1}\u{1B}[1\u{1} ")
    }

    /// libedit prints a literal with the visible character after it and drops one at the very end;
    /// the reset after a coloured right prompt must not be that one (typed text
    /// turned yellow).
    @Test("a prompt ending in an escape gets a space for it to go with")
    func trailingReset() {
        #expect(
            PromptEscapes.bracket("\u{1B}[33msearch 1/3\u{1B}[0m")
                == "\u{1}\u{1B}[33m\u{1}search 1/3\u{1}\u{1B}[0m\u{1} "
        )
    }

    @Test("wide strings round-trip")
    func wide() {
        for text in ["", "café ☕", "日本語", "a\u{0}b"] {
            let units = WideString.make(text)
            #expect(units.last == 0)
            let decoded = units.withUnsafeBufferPointer { WideString.decode($0.baseAddress!) }
            #expect(decoded == text.replacingOccurrences(of: "\u{0}", with: ""))
        }
    }
}
