import BTSLanguage
import Testing

/// Blocks, lists, parameters, pipes and redirections.
@Suite struct BlockParserTests {
    private func messages(_ text: String) -> [String] { parsed(text).diagnostics.map(\.message) }

    @Test func forLoopNestsAnIf() {
        let result = parsed(
            """
            for isbn in ${_.results[*].isbn}
              if $isbn == 1
                break
              elif exists ${x}; continue
              else; echo $isbn; end
            end
            echo done
            """
        )
        #expect(result.diagnostics.isEmpty)
        #expect(result.script.statements.count == 2)
        guard case .forLoop(let loop)? = result.script.statements.first else {
            Issue.record("expected a loop")
            return
        }
        #expect(loop.variable == "isbn")
        guard case .words(let words) = loop.items, case .variable(let reference) = words[0].parts[0] else {
            Issue.record("expected words")
            return
        }
        #expect(reference.path == ValuePath([.key("results"), .all, .key("isbn")]))
        #expect(reference.isList)
        guard case .conditional(let conditional)? = loop.body.first else {
            Issue.record("expected an if")
            return
        }
        #expect(conditional.branches.count == 2)
        #expect(
            conditional.branches[0].body == [
                .loopControl(LoopControl(kind: .break, range: SourceRange(offset: 53, length: 5)))
            ]
        )
        #expect(conditional.elseBody?.count == 1)
        #expect(result.script.commands.map(\.nameText) == ["echo", "echo"])
    }

    @Test func loopForms() {
        guard case .forLoop(let lines)? = parsed("for l in lines books.txt; echo $l; end").script.statements.first,
            case .lines(let file) = lines.items
        else {
            Issue.record("expected lines")
            return
        }
        #expect(file.literalText == "books.txt")
        guard case .forLoop(let split)? = parsed("for w in words \"a b\" c; end").script.statements.first,
            case .split(let words) = split.items
        else {
            Issue.record("expected words")
            return
        }
        #expect(words.count == 2)
        guard case .forLoop(let quoted)? = parsed("for w in 'lines' x; end").script.statements.first,
            case .words(let plain) = quoted.items
        else {
            Issue.record("a quoted 'lines' is a word")
            return
        }
        #expect(plain.count == 2)
    }

    @Test func everyBlockErrorIsReported() {
        #expect(messages("end") == ["'end' without an open block"])
        #expect(messages("break") == ["'break' outside a loop"])
        #expect(messages("if $x; continue; end") == ["'continue' outside a loop"])
        #expect(messages("else") == ["'else' without an open 'if'"])
        #expect(messages("for x im a b; end") == ["expected 'in' after 'for x', found 'im' (did you mean 'in'?)"])
        #expect(messages("for $x in a; end") == ["'$x' is not a variable name"])
        #expect(messages("for x in; end") == ["missing the items to loop over after 'in'"])
        #expect(messages("if; end") == ["missing condition after 'if'"])
        #expect(messages("if a; else; elif b; end") == ["'elif' after 'else'"])
        #expect(messages("if a; else b; end") == ["'else' takes no condition (did you mean 'elif'?)"])
        #expect(messages("for x in a | sort\nend") == ["'for' cannot be piped; pipe the commands inside the block"])
        // Several at once, in source order.
        #expect(
            messages("end\nfor x in a\nbreak 2\nend\nbreak") == [
                "'end' without an open block", "'break' takes no arguments", "'break' outside a loop",
            ]
        )
    }

    @Test func anUnclosedBlockIsIncompleteInput() {
        let result = parsed("for x in a b\n  echo $x")
        #expect(result.diagnostics.map(\.message) == ["unclosed 'for' block: expected 'end'"])
        #expect(result.isIncomplete)
        #expect(!Parser.isComplete("if $? == 0"))
        #expect(!Parser.isComplete("for x in a\nif $x\necho\nend"))
        #expect(Parser.isComplete("for x in a\nif $x\necho\nend\nend"))
        #expect(Parser.isLexicallyComplete("for x in a"))
        // A stray 'end' is an error, not a reason to wait for more.
        #expect(Parser.isComplete("end"))
    }

    @Test func redirectionsAndPipes() {
        guard let write = onlyCommand("search dune > out.json") else {
            Issue.record("expected one command")
            return
        }
        #expect(write.arguments.map(\.word.sourceForm) == ["dune"])
        #expect(write.redirection?.kind == .write(Word(literal: "out.json", range: SourceRange(offset: 14, length: 8))))
        guard let append = onlyCommand("echo hi >>$dir/log.txt"),
            case .append(let target)? = append.redirection?.kind
        else {
            Issue.record("expected an append")
            return
        }
        #expect(target.sourceForm == "$dir/log.txt")
        guard let pipe = onlyCommand("search the | sort | uniq -c; not a separator") else {
            Issue.record("expected one command")
            return
        }
        #expect(pipe.redirection?.kind == .pipe("sort | uniq -c; not a separator"))
        #expect(onlyCommand("search 'dune > out.json'")?.redirection == nil)
        #expect(onlyCommand("echo \"a | b\"")?.redirection == nil)
        // In conditions '>' is an operator.
        #expect(onlyCommand("expect ${_.totalCount} > 0")?.arguments.count == 3)
        #expect(messages("search dune >") == ["missing file name after '>'"])
        #expect(messages("search dune > a b") == ["unexpected 'b' after the redirection; '> FILE' comes last"])
        #expect(messages("| sort") == ["'|' needs a command before it"])
        #expect(messages("search dune |") == ["missing command after '|'"])
        #expect(messages("search dune > f | sort") == ["a command cannot both write a file and pipe its output"])
    }

    @Test func parametersAndDefaults() {
        guard let command = onlyCommand("echo $# $@ ${2:-five words} ${_.a[*].b}") else {
            Issue.record("expected one command")
            return
        }
        let references = command.arguments.compactMap { argument -> VariableReference? in
            if case .variable(let reference) = argument.word.parts[0] { return reference }
            return nil
        }
        #expect(references.map(\.name) == ["#", "@", "2", "_"])
        #expect(references.map(\.isList) == [false, true, false, true])
        #expect(references[2].fallback == "five words")
        #expect(command.arguments[0].word.listReference == nil)
        #expect(command.arguments[1].word.listReference != nil)
        #expect(messages("echo ${1:5}") == ["expected ':-' before a default value, e.g. ${1:-5}"])
        #expect(messages("echo ${a[*]:-x}") == ["a list ('[*]' or '$@') cannot have a default value"])
        #expect(messages("echo ${a[*}") == ["expected ']' after '[*'"])
    }
}
