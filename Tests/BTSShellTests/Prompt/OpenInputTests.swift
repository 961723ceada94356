import BTSTerminal
import Testing

@testable import BTSShell

/// The continuation prompt says what the input leaves open.
@Suite struct OpenInputTests {
    @Test(arguments: [
        ("echo 'abc", OpenInput?.some(.singleQuote)),
        ("echo \"abc", .doubleQuote),
        ("echo \"it's", .doubleQuote),
        ("echo 'say \"hi", .singleQuote),
        ("echo ${name", .brace),
        ("echo \"x ${name", .brace),
        ("search title dune \\", .block),
        ("for x in a b", .block),
        ("if 1 == 1\necho 'open", .singleQuote),
        ("for x in a\necho \"a\nb\"", .block),
        ("echo 'closed'", nil),
        ("for x in a\nend", nil),
    ])
    func whatIsOpen(_ text: String, _ expected: OpenInput?) {
        #expect(OpenInput.of(text) == expected, "\(text)")
    }

    @Test func eachPromptKeepsTheLeftPromptsWidth() {
        let prompts = OpenInput.allCases.map {
            PromptRenderer.continuation(marker: $0.marker, backend: "embedded", colour: false)
        }
        #expect(prompts == ["           '> ", "           \"> ", "          ${> ", "         ...> "])
        #expect(PromptRenderer.render(backend: "embedded", budget: nil, colour: false).continuation == prompts[3])
    }

    @Test func theShellsPromptChoosesTheContinuation() async throws {
        try await withShell { harness in
            let prompt = await harness.shell.interactivePrompt()
            #expect(prompt.continuation(after: "echo 'a").hasSuffix("'> "))
            #expect(prompt.continuation(after: "echo \"a").hasSuffix("\"> "))
            #expect(prompt.continuation(after: "for x in a").hasSuffix("...> "))
        }
    }
}
