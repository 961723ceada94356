import BTSLanguage
import Testing

@Suite struct ParserTests {
    @Test func commandsAndEmptyStatements() {
        let result = parsed(";; search dune ;\n\n jobs;")
        #expect(result.diagnostics.isEmpty)
        #expect(result.script.commands.map(\.nameText) == ["search", "jobs"])
        #expect(result.script.commands[0].range == SourceRange(offset: 3, length: 11))
    }

    @Test func longShortAndValueOptions() throws {
        let command = try #require(onlyCommand("search title dune --limit 5 -n 3 --limit=7 --watch -5 - -- --x"))
        let kinds = command.arguments.map { argument -> String in
            switch argument.kind {
            case .positional: return "P:\(argument.word.sourceForm)"
            case .endOfOptions: return "--"
            case .option(let option): return "O:\(option.spelling)=\(option.value?.sourceForm ?? "nil")"
            }
        }
        #expect(
            kinds == [
                "P:title", "P:dune", "O:--limit=nil", "P:5", "O:-n=nil", "P:3", "O:--limit=7",
                "O:--watch=nil", "P:-5", "P:-", "--", "P:--x",
            ]
        )
    }

    @Test func optionValueRanges() throws {
        let text = "search --limit=$n --title=\"a b\""
        let source = SourceFile(name: "t", text: text)
        let command = try #require(onlyCommand(text))
        let limit = try #require(command.arguments[0].option)
        #expect(source.slice(limit.nameRange) == "--limit")
        #expect(limit.value.map { source.slice($0.range) } == "$n")
        #expect(limit.value?.hasInterpolation == true)
        let title = try #require(command.arguments[1].option)
        #expect(title.value?.literalText == "a b")
        #expect(title.value.map { source.slice($0.range) } == "\"a b\"")
        let empty = try #require(onlyCommand("search --title=")?.arguments[0].option)
        #expect(empty.value?.literalText == "")
    }

    @Test func quotedDashWordsArePositional() throws {
        let command = try #require(onlyCommand("echo '--limit' \"-n\""))
        #expect(command.arguments.allSatisfy { $0.kind == .positional })
    }

    @Test func malformedOptions() {
        let result = parsed("search --=5\nsearch ---x\nsearch --li$x\nsearch -n€")
        #expect(
            result.diagnostics.map(\.message) == [
                "missing option name in '--=5'",
                "invalid option name '---x'",
                "malformed option '--li$x'",
                "invalid option name '-n€'",
            ]
        )
        #expect(result.script.commands.isEmpty)
    }

    @Test func badCommandNames() {
        let result = parsed("--limit 5\n$cmd x\n'' y\nok")
        #expect(
            result.diagnostics.map(\.message) == [
                "expected a command name, found option '--limit'",
                "a command name cannot contain variables or '$?'",
                "empty command name",
            ]
        )
        #expect(result.script.commands.map(\.nameText) == ["ok"])
    }

    @Test func recoversAndReportsSeveralErrors() {
        let text = """
            search ${_.}
            jobs
            echo ${_.a[x]} ; limits
            search --=1; echo "unclosed
            """
        let result = parsed(text)
        #expect(
            result.diagnostics.map(\.message) == [
                "expected a key after '.' in variable path",
                "expected an integer index or '*' after '['",
                "missing option name in '--=1'",
                "unterminated double-quoted string",
            ]
        )
        #expect(result.script.commands.map(\.nameText) == ["jobs", "limits"])
        #expect(result.isIncomplete)
        let source = SourceFile(name: "t", text: text)
        #expect(source.location(of: result.diagnostics[1].range.offset).description == "3:12")
    }

    @Test func pathErrors() {
        #expect(
            parsed("echo ${}").diagnostics.map(\.message) == ["empty variable reference; expected a name inside '${}'"]
        )
        #expect(parsed("echo ${a.b[1}").diagnostics.map(\.message) == ["expected ']' to close the index"])
        #expect(parsed("echo ${a b}").diagnostics.map(\.message) == ["unexpected 'b' in variable path"])
        #expect(parsed("echo ${é}").diagnostics.map(\.message) == ["unexpected 'é' where a variable name was expected"])
        #expect(parsed("echo ${?}").diagnostics.isEmpty)
        #expect(parsed("echo ${1}").diagnostics.isEmpty)
    }

    @Test func pathParsesFromPlainText() {
        guard
            case .success(.variable(let name, let path, let nameRange, let ranges, nil)) =
                ValuePathParser.parse("_.results[0].isbn")
        else {
            Issue.record("expected a variable")
            return
        }
        #expect(name == "_")
        #expect(path == ValuePath([.key("results"), .index(0), .key("isbn")]))
        #expect(nameRange == SourceRange(offset: 0, length: 1))
        #expect(
            ranges == [
                SourceRange(offset: 1, length: 8), SourceRange(offset: 9, length: 3),
                SourceRange(offset: 12, length: 5),
            ]
        )
        #expect((try? ValuePathParser.parse("_..x").get()) == nil)
    }

    @Test func incompleteInput() {
        #expect(Parser.isComplete("search dune"))
        #expect(Parser.isComplete(""))
        #expect(Parser.isComplete("echo 'a' \"b\" ${x} \\\n"))
        #expect(Parser.isComplete("echo a # 'unclosed in comment"))
        #expect(!Parser.isComplete("echo 'abc"))
        #expect(!Parser.isComplete("echo \"abc"))
        #expect(!Parser.isComplete("echo \"abc\\\""))
        #expect(!Parser.isComplete("search title dune \\"))
        #expect(!Parser.isComplete("echo ${_.results"))
        #expect(!Parser.isComplete("echo \"${x"))
        #expect(Parser.isComplete("echo 'multi\nline'"))
        #expect(!Parser.isComplete("echo 'multi\nline"))
    }

    @Test func incompleteDiagnosticsAreFlagged() {
        let result = parsed("echo 'abc")
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics[0].isIncompleteInput)
        #expect(result.diagnostics[0].range == SourceRange(offset: 5, length: 1))
        #expect(!parsed("echo ${a b}").isIncomplete)
    }
}
