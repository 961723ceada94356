import BooksTrackSupport
import TestSupport
import Testing

@testable import BTSLanguage

@Suite(.onWorkThreads) struct FuzzTests {
    static let alphabet: [String] = [
        "a", "b", "x", "_", "1", "0", " ", " ", "\t", "'", "\"", "$", "{", "}", "[", "]", ".", "\\", ";", "#",
        "\n", "\r", "\u{0}", "é", "三", "📚", "e\u{301}", "-", "--", "=", "?", "${", "${_.", "search ", "--limit",
        // Issue 14: blocks, lists, parameters, pipes and redirections.
        "for x in ", "if ", "elif ", "else", "end", "break", "continue", "\nend\n", "|", ">", ">>", "[*]", ":-",
        "$#", "$@", "lines ", "words ",
    ]

    static func randomText(_ generator: inout SplitMix64) -> String {
        let length = Int.random(in: 0...40, using: &generator)
        return (0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "" }.joined()
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func lexerAndParserInvariants(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        for _ in 0..<1500 {
            let text = Self.randomText(&generator)
            let source = SourceFile(name: "fuzz", text: text)
            let all = SourceRange(offset: 0, length: source.bytes.count)
            let (tokens, lexical) = Lexer.tokenize(source)
            #expect(tokens.last?.kind == .end, "\(text.debugDescription)")
            var previousEnd = 0
            for token in tokens {
                #expect(all.contains(token.range), "token \(token.range) in \(text.debugDescription)")
                #expect(token.range.offset >= previousEnd, "tokens overlap in \(text.debugDescription)")
                previousEnd = token.range.end
                guard let word = token.word else { continue }
                for part in word.parts {
                    #expect(
                        word.range.contains(part.range),
                        "part \(part.range) outside \(word.range) in \(text.debugDescription)"
                    )
                }
            }
            let result = Parser.parse(source)
            for diagnostic in result.diagnostics {
                #expect(all.contains(diagnostic.range), "diagnostic \(diagnostic) in \(text.debugDescription)")
                for note in diagnostic.notes {
                    if let range = note.range { #expect(all.contains(range)) }
                }
            }
            for command in result.script.commands {
                #expect(all.contains(command.range))
                if let redirection = command.redirection { #expect(all.contains(redirection.range)) }
                for argument in command.arguments {
                    #expect(command.range.contains(argument.range))
                    if let option = argument.option {
                        #expect(argument.range.contains(option.nameRange))
                        if let value = option.value { #expect(argument.range.contains(value.range)) }
                    }
                }
            }
            let complete = Parser.isComplete(text)
            #expect(complete == !result.isIncomplete, "\(text.debugDescription)")
            #expect(Parser.isLexicallyComplete(text) == !lexical.contains { $0.isIncompleteInput })
            if !lexical.contains(where: { $0.isIncompleteInput }) {
                // Only an open block can make lexically complete text incomplete.
                #expect(complete || result.diagnostics.contains { $0.message.hasPrefix("unclosed '") })
            }
            if !complete { #expect(result.hasErrors) }
            let rendered = DiagnosticRenderer(colored: true).render(result.diagnostics, in: source)
            #expect(result.diagnostics.isEmpty == rendered.isEmpty)
            _ = DiagnosticRenderer().render(result.diagnostics, in: source)
        }
    }

    @Test func plainWordsSplitLikeWhitespace() {
        var generator = SplitMix64(seed: 99)
        let letters = ["a", "b", "c", "é", "三", " ", "  "]
        for _ in 0..<500 {
            let count = Int.random(in: 1...20, using: &generator)
            let text = "cmd " + (0..<count).map { _ in letters.randomElement(using: &generator) ?? "" }.joined()
            let result = Parser.parse(text)
            #expect(result.diagnostics.isEmpty)
            let expected = text.split(separator: " ").dropFirst().map(String.init)
            #expect(result.script.commands.first?.arguments.compactMap(\.word.literalText) == expected)
        }
    }

    @Test func locationsAreMonotonic() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let source = SourceFile(name: "f", text: Self.randomText(&generator))
            var previous = SourceLocation(line: 1, column: 1, offset: 0)
            for offset in 0...source.bytes.count {
                let location = source.location(of: offset)
                #expect(location.line >= previous.line)
                if location.line == previous.line { #expect(location.column >= previous.column) }
                previous = location
            }
        }
    }
}

@Suite(.onWorkThreads) struct ReferenceRangeFuzzTests {
    @Test func referenceRangesNest() {
        var generator = SplitMix64(seed: 2024)
        for _ in 0..<2000 {
            let text = FuzzTests.randomText(&generator)
            let source = SourceFile(name: "f", text: text)
            for token in Lexer.tokenize(source).tokens {
                for part in token.word?.parts ?? [] {
                    guard case .variable(let reference) = part else { continue }
                    #expect(reference.range.contains(reference.nameRange), "\(text.debugDescription)")
                    #expect(reference.componentRanges.count == reference.path.components.count)
                    for range in reference.componentRanges {
                        #expect(reference.range.contains(range), "\(text.debugDescription)")
                    }
                }
            }
        }
    }
}
