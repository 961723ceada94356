import BTSLanguage
import Testing

@Suite struct DiagnosticRendererTests {
    let unknownOption = "unknown option '--limt' for 'search' (did you mean '--limit'?)"

    @Test func goldenPlain() {
        let source = SourceFile(name: "script.bts", text: "jobs\nlimits\nsearch title dune --limt 5\n")
        let diagnostic = Diagnostic.error(unknownOption, rule: .unknownOption, at: SourceRange(offset: 30, length: 6))
        let expected = """
            script.bts:3:19: error: unknown option '--limt' for 'search' (did you mean '--limit'?)
              3 | search title dune --limt 5
                |                   ^~~~~~

            """
        #expect(DiagnosticRenderer().render(diagnostic, in: source) == expected)
    }

    /// On a terminal 60 columns wide the message wraps at spaces, 2 columns in; the snippet and
    /// its caret stay as they are.
    @Test func goldenWrappedToAWidth() {
        let source = SourceFile(name: "script.bts", text: "jobs\nlimits\nsearch title dune --limt 5\n")
        let diagnostic = Diagnostic.error(unknownOption, rule: .unknownOption, at: SourceRange(offset: 30, length: 6))
        let expected = """
            script.bts:3:19: error: unknown option '--limt' for 'search'
              (did you mean '--limit'?)
              3 | search title dune --limt 5
                |                   ^~~~~~

            """
        #expect(DiagnosticRenderer(width: 60).render(diagnostic, in: source) == expected)
        #expect(
            DiagnosticRenderer(width: 200).render(diagnostic, in: source)
                == DiagnosticRenderer().render(diagnostic, in: source)
        )
    }

    @Test func goldenColored() {
        let source = SourceFile(name: "script.bts", text: "jobs\nlimits\nsearch title dune --limt 5\n")
        let diagnostic = Diagnostic.error(unknownOption, rule: .unknownOption, at: SourceRange(offset: 30, length: 6))
        let expected =
            "\u{1B}[1mscript.bts:3:19: \u{1B}[0m\u{1B}[0;1;31merror: \u{1B}[0m"
            + "\u{1B}[1m\(unknownOption)\u{1B}[0m\n"
            + "  3 | search title dune --limt 5\n"
            + "    |                   \u{1B}[0;1;32m^~~~~~\u{1B}[0m\n"
        #expect(DiagnosticRenderer(colored: true).render(diagnostic, in: source) == expected)
    }

    @Test func gutterFollowsLineNumberWidth() {
        let text = String(repeating: "jobs\n", count: 11) + "sleep 2x\n"
        let source = SourceFile(name: "<stdin>", text: text)
        let diagnostic = Diagnostic.error("bad", rule: .unknownCommand, at: SourceRange(offset: 61, length: 2))
        #expect(
            DiagnosticRenderer().render(diagnostic, in: source) == """
                <stdin>:12:7: error: bad
                  12 | sleep 2x
                     |       ^~

                """
        )
    }

    @Test func tabsAreExpanded() {
        let source = SourceFile(name: "-c", text: "\tsearch\t--limt")
        let diagnostic = Diagnostic.error("x", rule: .unknownCommand, at: SourceRange(offset: 8, length: 6))
        #expect(
            DiagnosticRenderer().render(diagnostic, in: source) == """
                -c:1:17: error: x
                  1 |         search  --limt
                    |                 ^~~~~~

                """
        )
    }

    @Test func wideCharactersShiftTheCaret() {
        let source = SourceFile(name: "-c", text: "echo 三体 --limt")
        let diagnostic = Diagnostic.error("x", rule: .unknownCommand, at: SourceRange(offset: 12, length: 6))
        #expect(
            DiagnosticRenderer().render(diagnostic, in: source) == """
                -c:1:11: error: x
                  1 | echo 三体 --limt
                    |           ^~~~~~

                """
        )
    }

    @Test func rangePastEndOfLineAndMultiline() {
        let source = SourceFile(name: "s", text: "similar\nnext line")
        let missing = Diagnostic.error(
            "missing argument ISBN for 'similar'",
            rule: .missingArgument,
            at: SourceRange(offset: 7, length: 0),
            notes: [Diagnostic.Note("usage: similar ISBN [--limit N]")]
        )
        #expect(
            DiagnosticRenderer().render(missing, in: source) == """
                s:1:8: error: missing argument ISBN for 'similar'
                  1 | similar
                    |        ^
                s: note: usage: similar ISBN [--limit N]

                """
        )
        let spanning = Diagnostic.error("y", rule: .unknownCommand, at: SourceRange(offset: 4, length: 10))
        #expect(
            DiagnosticRenderer().render(spanning, in: source) == """
                s:1:5: error: y
                  1 | similar
                    |     ^~~

                """
        )
        let beyond = Diagnostic(.warning, "z", rule: .unknownCommand, range: SourceRange(offset: 500, length: 3))
        #expect(
            DiagnosticRenderer().render(beyond, in: source) == """
                s:2:10: warning: z
                  2 | next line
                    |          ^

                """
        )
    }

    @Test func notesWithRangesAndControlCharacters() {
        let source = SourceFile(name: "s", text: "echo a\u{1}b --x --x")
        let diagnostic = Diagnostic.error(
            "dup",
            rule: .unknownCommand,
            at: SourceRange(offset: 13, length: 3),
            notes: [Diagnostic.Note("first given here", range: SourceRange(offset: 9, length: 3))]
        )
        let expected =
            "s:1:14: error: dup\n"
            + "  1 | echo a\u{2401}b --x --x\n"
            + "    | " + String(repeating: " ", count: 13) + "^~~\n"
            + "s:1:10: note: first given here\n"
            + "  1 | echo a\u{2401}b --x --x\n"
            + "    | " + String(repeating: " ", count: 9) + "^~~\n"
        #expect(DiagnosticRenderer().render(diagnostic, in: source) == expected)
    }

    @Test func parserDiagnosticsRenderEndToEnd() {
        let result = Parser.parse("echo ok\necho \"open", name: "script.bts")
        #expect(
            DiagnosticRenderer().render(result.diagnostics, in: result.source) == """
                script.bts:2:6: error: unterminated double-quoted string
                  2 | echo "open
                    |      ^
                script.bts: note: the string starts here and runs to the end of the input

                """
        )
    }

    /// A byte order mark (U+FEFF) shows as nothing on a terminal: in a message, a note and a
    /// snippet it is shown as `<U+FEFF>`, the caret still under what it points at.
    @Test func aByteOrderMarkIsShown() {
        let source = SourceFile(name: "script.bts", text: "\u{FEFF}serch dune\n")
        let diagnostic = Diagnostic.error(
            "unknown command '\u{FEFF}serch'",
            rule: .unknownCommand,
            at: SourceRange(offset: 0, length: 8),
            notes: [Diagnostic.Note("'\u{FEFF}' is a byte order mark")]
        )
        let expected = """
            script.bts:1:1: error: unknown command '<U+FEFF>serch'
              1 | <U+FEFF>serch dune
                | ^~~~~~~~~~~~~
            script.bts: note: '<U+FEFF>' is a byte order mark

            """
        #expect(DiagnosticRenderer().render(diagnostic, in: source) == expected)
        let word = Diagnostic.error("here", rule: .unknownCommand, at: SourceRange(offset: 9, length: 4))
        #expect(
            DiagnosticRenderer().render(word, in: source).contains(
                "  1 | <U+FEFF>serch dune\n    |               ^~~~\n"
            )
        )
        #expect(DiagnosticRenderer.visible("plain") == "plain")
    }
}
