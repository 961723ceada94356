import BTSTerminal
import Foundation
import Testing

@Suite("Prompt renderer")
struct PromptRendererTests {
    @Test("plain prompt, continuation aligned under it")
    func plain() {
        let prompt = PromptRenderer.render(backend: "local", budget: nil, colour: false)
        #expect(prompt.left == "bts:local> ")
        #expect(prompt.right == nil)
        #expect(prompt.continuation == "      ...> ")
        #expect(prompt.continuation.count == prompt.left.count)
        #expect(prompt.linePrompt == LinePrompt("bts:local> ", continuation: "      ...> ", right: nil))
    }

    @Test("colour only when asked, same visible width")
    func colour() {
        let prompt = PromptRenderer.render(backend: "embedded", budget: nil, colour: true)
        #expect(prompt.left.contains("\u{1B}["))
        #expect(CompletionText.stripEscapes(prompt.left) == "bts:embedded> ")
        #expect(CompletionText.displayWidth(prompt.left) == "bts:embedded> ".count)
        #expect(CompletionText.stripEscapes(prompt.continuation) == "         ...> ")
    }

    @Test("the budget shows on the right only when low; red when spent")
    func budget() {
        let full = PromptBudget(text: "semantic 5/5", fractionLeft: 1, remaining: 5)
        let most = PromptBudget(text: "semantic 4/5 ↻50s", fractionLeft: 0.8, remaining: 4)
        let low = PromptBudget(text: "semantic 1/5 ↻42s", fractionLeft: 0.2, remaining: 1)
        let spent = PromptBudget(text: "semantic 0/5 ↻12s", fractionLeft: 0, remaining: 0)
        let blocked = PromptBudget(text: "search 0/? ↻30s", fractionLeft: nil, isBlocked: true)
        let unknown = PromptBudget(text: "search ?/?", fractionLeft: nil)
        #expect(PromptRenderer.render(backend: "x", budget: full, colour: false).right == nil)
        #expect(PromptRenderer.render(backend: "x", budget: most, colour: false).right == nil)
        #expect(PromptRenderer.render(backend: "x", budget: low, colour: false).right == "semantic 1/5 ↻42s")
        #expect(PromptRenderer.render(backend: "x", budget: unknown, colour: false).right == nil)
        #expect(PromptRenderer.render(backend: "x", budget: blocked, colour: false).right == "search 0/? ↻30s")
        let red = PromptRenderer.render(backend: "x", budget: spent, colour: true).right ?? ""
        #expect(red.hasPrefix("\u{1B}[31m"))
        let yellow = PromptRenderer.render(backend: "x", budget: low, colour: true).right ?? ""
        #expect(yellow.hasPrefix("\u{1B}[33m"))
        #expect(PromptRenderer.render(backend: "x", budget: most, colour: false, lowThreshold: 0.9).right != nil)
    }

    @Test("backend names: embedded, profiles, built-in URLs, hosts")
    func backendNames() {
        #expect(PromptRenderer.backendName(url: nil) == "embedded")
        // The built-in URLs are the shell's (BackendProfile.builtInNamesByURL, tested there).
        let builtIn = ["http://books.example:81": "mine"]
        #expect(PromptRenderer.backendName(url: URL(string: "http://books.example:81/"), builtIn: builtIn) == "mine")
        #expect(PromptRenderer.backendName(url: URL(string: "HTTP://Books.Example:81"), builtIn: builtIn) == "mine")
        #expect(PromptRenderer.backendName(url: URL(string: "http://books.example:81")) == "books.example:81")
        #expect(PromptRenderer.backendName(url: URL(string: "http://127.0.0.1:9000"), profile: "work") == "work")
        #expect(PromptRenderer.backendName(url: URL(string: "http://127.0.0.1:9000")) == "127.0.0.1:9000")
        #expect(
            PromptRenderer.backendName(url: URL(string: "https://books.example.org:443/api")) == "books.example.org"
        )
        #expect(PromptRenderer.backendName(url: URL(string: "http://h:1"), profile: "http://h:1") == "h:1")
    }

    @Test("control characters from names and budgets never reach the terminal")
    func sanitised() {
        let prompt = PromptRenderer.render(
            backend: "evil\u{1B}]0;pwned\u{07}",
            budget: PromptBudget(text: "x\u{1B}[2J 0/1", fractionLeft: 0, remaining: 0),
            colour: false
        )
        #expect(!prompt.left.contains("\u{1B}"))
        #expect(prompt.right?.contains("\u{1B}") == false)
        // C1 controls (U+009B is a one-byte CSI) and bidi overrides/isolates passed through before.
        let c1 = PromptRenderer.render(
            backend: "a\u{9B}2Jb\u{202E}c\u{2066}d",
            budget: PromptBudget(text: "\u{85}\u{200F}1/5", fractionLeft: 0, remaining: 1),
            colour: false
        )
        for scalar in ["\u{9B}", "\u{202E}", "\u{2066}", "\u{85}", "\u{200F}"] {
            #expect(
                !c1.left.contains(scalar) && c1.right?.contains(scalar) == false,
                "\(scalar.unicodeScalars.first?.value ?? 0)"
            )
        }
        #expect(c1.left.hasPrefix("bts:a\u{FFFD}2Jb\u{FFFD}c\u{FFFD}d> "), "\(c1.left)")
    }
}
