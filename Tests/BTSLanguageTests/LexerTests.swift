import BTSLanguage
import Testing

@Suite struct LexerTests {
    @Test func bareWordsAndSeparators() {
        #expect(
            lexed("search title  dune;jobs\nexit") == ["search", "title", "dune", ";", "jobs", "\\n", "exit", "<end>"]
        )
    }

    @Test func tokenRangesCoverTheSourceText() {
        let source = SourceFile(name: "t", text: "  search 'a b' \"c\"x;")
        let tokens = Lexer.tokenize(source).tokens
        #expect(tokens.map { source.slice($0.range) } == ["search", "'a b'", "\"c\"x", ";", ""])
        #expect(tokens[0].range == SourceRange(offset: 2, length: 6))
        #expect(tokens.last?.range == SourceRange(offset: 20, length: 0))
    }

    @Test func singleQuotesAreLiteral() throws {
        let command = try #require(onlyCommand(#"echo 'a $x \n "b"'"#))
        #expect(command.arguments[0].word.literalText == #"a $x \n "b""#)
        #expect(command.arguments[0].word.isQuoted)
    }

    @Test func doubleQuoteEscapes() throws {
        let command = try #require(onlyCommand(#"echo "q\" b\\ n\n t\t d\$ other\x""#))
        #expect(command.arguments[0].word.literalText == "q\" b\\ n\n t\t d$ other\\x")
    }

    @Test func emptyQuotedWordIsKept() throws {
        let command = try #require(onlyCommand(#"echo "" ''"#))
        #expect(command.arguments.map(\.word.literalText) == ["", ""])
        #expect(command.arguments[0].word.range == SourceRange(offset: 5, length: 2))
    }

    @Test func adjacentQuotedAndBarePartsFormOneWord() throws {
        let command = try #require(onlyCommand(#"echo ab"c d"'e'f"#))
        #expect(command.arguments.count == 1)
        #expect(command.arguments[0].word.literalText == "abc def")
    }

    /// Runs of ordinary bytes (bare, single- and double-quoted, non-ASCII among them) are read a run at
    /// a time: the parts, their texts and their ranges are those of a byte-by-byte reading.
    @Test func literalRunsKeepTheirPartsAndRanges() throws {
        let text = #"echo Dün'e 2'"x\"yé"+ñ$v.w 'ü'z|cat"#
        let source = SourceFile(name: "t", text: text)
        let command = try #require(onlyCommand(text))
        let words = command.arguments.map(\.word)
        #expect(words.count == 2)
        let parts = words[0].parts.map { part -> String in
            switch part {
            case .literal(let literal, let range, let isQuoted):
                return "\(isQuoted ? "q" : "b")[\(literal)]@\(source.slice(range))"
            default:
                return "other@\(source.slice(part.range))"
            }
        }
        #expect(parts == [#"b[Dün]@Dün"#, #"q[e 2x"yé]@'e 2'"x\"yé""#, "b[+ñ]@+ñ", "other@$v", "b[.w]@.w"])
        #expect(words[1].literalText == "üz")
        #expect(source.slice(words[1].range) == "'ü'z")
    }

    @Test func bareBackslashEscapesNextCharacter() throws {
        let command = try #require(onlyCommand(##"echo a\ b \; \#c"##))
        #expect(command.arguments.map(\.word.literalText) == ["a b", ";", "#c"])
    }

    @Test func interpolationForms() throws {
        let command = try #require(onlyCommand(#"echo $x ${y} $1 $_ $? ${_.results[0].isbn} "n=$n!" pre${a}post $ 5$"#))
        let words = command.arguments.map(\.word)
        #expect(
            words.map(\.sourceForm) == [
                "$x", "$y", "$1", "$_", "$?", "${_.results[0].isbn}", "n=$n!",
                "pre$apost", "$", "5$",
            ]
        )
        guard case .variable(let reference) = words[5].parts[0] else {
            Issue.record("expected a variable")
            return
        }
        #expect(reference.name == "_")
        #expect(reference.path.components == [.key("results"), .index(0), .key("isbn")])
        #expect(reference.range == SourceRange(offset: 22, length: 20))
        let source = SourceFile(name: "t", text: #"echo $x ${y} $1 $_ $? ${_.results[0].isbn}"#)
        #expect(source.slice(reference.nameRange) == "_")
        #expect(reference.componentRanges.map { source.slice($0) } == [".results", "[0]", ".isbn"])
        #expect(source.slice(reference.range(throughComponent: 1)) == "${_.results[0]")
        guard case .variable(let plain) = words[0].parts[0] else {
            Issue.record("expected a variable")
            return
        }
        #expect(plain.nameRange == SourceRange(offset: 6, length: 1))
        guard case .status(let range) = words[4].parts[0] else {
            Issue.record("expected $?")
            return
        }
        #expect(range == SourceRange(offset: 19, length: 2))
        #expect(words[1].hasInterpolation)
        #expect(!words[8].hasInterpolation)
        #expect(words[6].parts.count == 3)
    }

    @Test func variablePartsCarryExactRanges() throws {
        let text = #"echo "a $name b""#
        let source = SourceFile(name: "t", text: text)
        let command = try #require(onlyCommand(text))
        let ranges = command.arguments[0].word.parts.map { source.slice($0.range) }
        #expect(ranges == [#""a "#, "$name", #" b""#])
    }

    @Test func pathWithSpacesAndNegativeIndex() throws {
        let command = try #require(onlyCommand("echo ${ _ . results [ -1 ] . title }"))
        guard case .variable(let reference) = command.arguments[0].word.parts[0] else {
            Issue.record("expected a variable")
            return
        }
        #expect(reference.path == ValuePath([.key("results"), .index(-1), .key("title")]))
        #expect(reference.path.description == ".results[-1].title")
    }

    @Test func commentsOnlyAtWordStart() {
        #expect(lexed("echo a#b # comment ; not a command\njobs") == ["echo", "a#b", "\\n", "jobs", "<end>"])
        #expect(lexed("# whole line\n#another") == ["\\n", "<end>"])
    }

    @Test func lineContinuation() {
        #expect(lexed("search title \\\n dune\\\n2") == ["search", "title", "dune2", "<end>"])
        #expect(lexed("echo \"a\\\nb\"") == ["echo", "ab", "<end>"])
        #expect(lexed("echo a \\\r\nb") == ["echo", "a", "b", "<end>"])
    }

    @Test func crlfLineEndings() {
        #expect(lexed("jobs\r\nlimits\r\n") == ["jobs", "\\n", "limits", "\\n", "<end>"])
    }

    @Test func unicodeWords() throws {
        let command = try #require(onlyCommand("search title 三体 café 📚"))
        #expect(command.arguments.map(\.word.literalText) == ["title", "三体", "café", "📚"])
        #expect(command.arguments[1].word.range == SourceRange(offset: 13, length: 6))
    }

    @Test func nulIsAnError() {
        let result = parsed("echo a\u{0}b\njobs")
        #expect(result.diagnostics.map(\.message) == ["unexpected NUL character"])
        #expect(result.diagnostics[0].range == SourceRange(offset: 6, length: 1))
        #expect(result.script.commands.map(\.nameText) == ["jobs"])
    }
}
