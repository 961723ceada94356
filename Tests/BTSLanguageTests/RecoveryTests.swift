import BTSLanguage
import Testing

/// The parser goes on after an error at the next line, so one run reports every error: an open
/// `${` ends on its line (said where it starts), and a block that is never closed or whose header
/// is broken still hands its body on to be checked. A trailing `\` carries a pipeline on.
@Suite struct RecoveryTests {
    /// Each diagnostic as `line:column message`.
    static func located(_ text: String) -> [String] {
        let source = SourceFile(name: "t.bts", text: text)
        return Parser.parse(source).diagnostics.map { "\(source.location(of: $0.range.offset)) \($0.message)" }
    }

    @Test func anOpenBraceIsReportedWhereItStarts() {
        #expect(
            Self.located("echo ${_.\nsearch dune\necho ${x}\n")
                == ["1:6 unterminated '${'; expected '}' before the end of the line"]
        )
        #expect(
            Self.located("echo a ${_.tot\r\nsearch dune")
                == ["1:8 unterminated '${'; expected '}' before the end of the line"]
        )
        // The next line is read afresh: its commands are there, and so are its errors.
        let result = parsed("echo ${_.\nsearch dune\necho \"open")
        #expect(result.script.commands.map(\.nameText) == ["search"])
        #expect(
            result.diagnostics.map(\.message) == [
                "unterminated '${'; expected '}' before the end of the line",
                "unterminated double-quoted string",
            ]
        )
        // More input cannot close it on another line: it is an error, not a reason to read more.
        #expect(!result.diagnostics[0].isIncompleteInput)
        #expect(!Parser.isComplete("echo ${_.results"))
        #expect(Parser.isComplete("echo ${_.results\n"))
        #expect(lexed("echo ${_.\nx") == ["echo", "", "\\n", "x", "<end>"])
    }

    @Test func anUnclosedBlockKeepsItsBodyForTheCheck() {
        let result = parsed("for x in a b\n  search dune --bogus\n  if $x\n    echo $x\n")
        #expect(
            result.diagnostics.map(\.message) == [
                "unclosed 'for' block: expected 'end'", "unclosed 'if' block: expected 'end'",
            ]
        )
        #expect(result.isIncomplete)
        #expect(result.script.commands.map(\.nameText) == ["search", "echo"])
        guard case .forLoop(let loop)? = result.script.statements.first else {
            Issue.record("\(result.script.statements)")
            return
        }
        #expect(loop.end == nil)
        #expect(loop.body.count == 2)
        // The unclosed block's diagnostic points at its opener.
        #expect(Self.located("echo a\nfor x in a\n  echo b") == ["2:1 unclosed 'for' block: expected 'end'"])
    }

    @Test func aBlockWithABrokenHeaderStillHandsOnItsBody() {
        let result = parsed(
            "for $x in a\n  serch dune\nend\nif\n  search dune --bogus\nelse\n  echo c\nend\nwhile\n  echo w\n"
        )
        #expect(
            result.diagnostics.map(\.message) == [
                "'$x' is not a variable name", "missing condition after 'if'", "unclosed 'while' block: expected 'end'",
                "missing condition after 'while'",
            ]
        )
        #expect(result.script.commands.map(\.nameText) == ["serch", "search", "echo", "echo"])
        // The blocks themselves are gone: nothing of a script with errors runs.
        #expect(result.script.statements.allSatisfy { if case .command = $0 { true } else { false } })
    }

    @Test func aTrailingBackslashCarriesAPipelineOn() throws {
        #expect(
            lexed("echo hi | tr a-z A-Z \\\n  | rev\necho next")
                == ["echo", "hi", "|tr a-z A-Z \\\n  | rev", "\\n", "echo", "next", "<end>"]
        )
        #expect(lexed("a | b \\\r\n| c\r\nd") == ["a", "|b \\\r\n| c", "\\n", "d", "<end>"])
        #expect(lexed("a | b \\\n| c \\\n| d") == ["a", "|b \\\n| c \\\n| d", "<end>"])
        // An escaped backslash is the pipeline's own.
        #expect(lexed("a | echo \\\\\nb") == ["a", "|echo \\\\", "\\n", "b", "<end>"])
        let command = try #require(onlyCommand("search x \\\n  | jq . \\\n  | head -3"))
        #expect(command.redirection?.kind == .pipe("jq . \\\n  | head -3"))
        // At the end of the input it waits for the next line, as a word's backslash does.
        let open = parsed("search x | jq . \\")
        #expect(open.isIncomplete)
        #expect(open.diagnostics.map(\.message) == ["backslash at the end of input"])
        #expect(open.script.commands.isEmpty)
        #expect(!Parser.isLexicallyComplete("a | b \\"))
        #expect(Parser.isComplete("a | b \\\\"))
    }
}
