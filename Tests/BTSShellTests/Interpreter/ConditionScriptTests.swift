import BTSLanguage
import BTSShell
import Foundation
import Testing

/// Conditions in scripts: `and`, `or`, `not` and parentheses in `if`, `elif`, `while` and
/// `expect`; a word that holds an operator (`$n==6`, always true) refused before anything runs,
/// with the fix, wherever a script is checked; and a check that sees the whole file.
@Suite("conditions in scripts")
struct ConditionScriptTests {
    @Test func aWordHoldingAnOperatorStopsTheScriptBeforeAnyRequest() async throws {
        let hits = HitCounter()
        try await TinyServer.counting(hits) { server in
            try await withShell(backend: BackendRequest(apiURL: "http://127.0.0.1:\(server.port)")) { harness in
                let status = await harness.run(
                    """
                    search title dune
                    set n 5
                    expect $n==6
                    if 1==2
                      echo never
                    end
                    while ${_.totalCount}>0; echo never; end
                    """
                )
                #expect(status == 2, "\(harness.err)")
                #expect(harness.out.isEmpty, "nothing ran")
                #expect(
                    harness.err.contains(
                        """
                        test.bts:3:8: error: '$n==6' is one word, so it is always true; write '$n == 6'
                          3 | expect $n==6
                            |        ^~~~~
                        """
                    ),
                    "\(harness.err)"
                )
                #expect(
                    harness.err.contains(
                        "test.bts:4:4: error: '1==2' is one word, so it is always true; write '1 == 2'"
                    ),
                    "\(harness.err)"
                )
                #expect(
                    harness.err.contains(
                        "test.bts:7:7: error: '${_.totalCount}>0' is one word, so it is always true; write '${_.totalCount} > 0'"
                    ),
                    "\(harness.err)"
                )
            }
            #expect(hits.total == 0, "no request was made")
        }
    }

    @Test func theFixTravelsWithTheDiagnostic() async throws {
        try await withShell { harness in
            let text =
                "set n 5\nexpect $n==6\nif ${n}>=\"a b\"; echo x; end\nexpect \"$n==6\"\nexpect $x matches '^a<b'\n"
            let diagnostics = await harness.shell.diagnostics(of: text, name: "t.bts")
            let source = SourceFile(name: "t.bts", text: text)
            #expect(diagnostics.map { source.slice($0.range) } == ["$n==6", "${n}>=\"a b\""])
            #expect(
                diagnostics.compactMap(\.fixIt).map { source.slice($0.range) + " → " + $0.replacement }
                    == ["$n==6 → $n == 6", "${n}>=\"a b\" → ${n} >= \"a b\""]
            )
        }
    }

    @Test func theREPLRefusesItToo() async throws {
        try await withShell { harness in
            #expect(await harness.typed("set n 5") == 0)
            #expect(await harness.typed("expect $n==6") == 2)
            #expect(
                harness.err.contains("'$n==6' is one word, so it is always true; write '$n == 6'"),
                "\(harness.err)"
            )
            #expect(await harness.typed("expect $n == 5 and not $n == 6") == 0, "\(harness.err)")
        }
    }

    @Test func andOrNotAndParenthesesInEveryCondition() async throws {
        try await withShell { harness in
            let status = await harness.run(
                """
                set n 5
                if $n == 5 and not $n > 6; echo a; end
                if $n == 1 or ( $n > 4 and $n < 6 ); echo b; end
                if not ( $n == 5 ); echo no; elif $n == 4 or $n == 5 and $n != 3; echo c; else; echo no; end
                if $n == 5 or $n == 2 and $n == 1; echo d; end
                set i 0
                while $i < 10 and not ( $i == 3 or $i == 7 )
                  set i $i + 1
                end
                echo i=$i
                expect $n == 5 and ( $i == 3 or $i == 4 )
                expect not $n == 4 and not ( $i > 3 )
                expect 'and' == "and" or 1 == 2
                """
            )
            #expect(status == 0, "\(harness.err)")
            #expect(harness.out == "a\nb\nc\nd\ni=3\n")
        }
    }

    @Test func evaluationStopsWhenTheAnswerIsKnown() async throws {
        try await withShell { harness in
            // The unset variable would be a usage error (exit 2): it is never read.
            let status = await harness.run(
                """
                if false and ${env.BTS_NOT_SET_ANYWHERE} == 1; echo no; end
                if true or ${env.BTS_NOT_SET_ANYWHERE} == 1; echo yes; end
                expect 1 == 1 or ${env.BTS_NOT_SET_ANYWHERE}
                """
            )
            #expect(status == 0, "\(harness.err)")
            #expect(harness.out == "yes\n")
            #expect(await harness.run("if true and ${env.BTS_NOT_SET_ANYWHERE} == 1; echo no; end") == 2)
            #expect(harness.err.contains("environment variable 'BTS_NOT_SET_ANYWHERE' is not set"), "\(harness.err)")
        }
    }

    @Test func aFailedExpectShowsEachAtomItEvaluated() async throws {
        try await withShell { harness in
            #expect(await harness.run("set n 5\nexpect ( $n == 6 or $n > 10 ) and $n > 0") == 4)
            #expect(
                harness.err.contains(
                    """
                    test.bts:2:1: error: expectation failed: ( $n == 6 or $n > 10 ) and $n > 0
                    """
                ),
                "\(harness.err)"
            )
            #expect(
                harness.err.hasSuffix(
                    """
                      $n == 6: false
                        left:  5
                        right: 6
                      $n > 10: false
                        left:  5
                        right: 10

                    """
                ),
                "\(harness.err)"
            )
        }
        try await withShell { harness in
            #expect(await harness.run("set n 5\nexpect $n == 6") == 4)
            #expect(harness.err.hasSuffix("  left:  5\n  right: 6\n"), "\(harness.err)")
        }
    }

    @Test func malformedConditionsAreReportedWithTheRest() async throws {
        try await withShell { harness in
            let status = await harness.run(
                """
                echo first
                if ( $a == 1; echo x; end
                while $a and; end
                expect $a or
                expect ( $a ) )
                serch x
                """
            )
            #expect(status == 2)
            #expect(!harness.out.contains("first"), "nothing ran")
            for expected in [
                "test.bts:2:4: error: '(' is not closed; expected ')'",
                "test.bts:3:10: error: 'and' needs a condition after it",
                "test.bts:4:11: error: 'or' needs a condition after it",
                "test.bts:5:15: error: ')' without a matching '('",
                "test.bts:6:1: error: unknown command 'serch'",
            ] {
                #expect(harness.err.contains(expected), "\(expected)\n\(harness.err)")
            }
        }
    }

    @Test func theCheckSeesPastAnUnclosedBlockAndAnOpenBrace() async throws {
        try await withShell { harness in
            let status = await harness.run(
                """
                echo ${_.
                for x in a b
                  search title dune --bogus
                  if $x==a
                    search title dune --limt 3
                """
            )
            #expect(status == 2)
            #expect(harness.out.isEmpty, "nothing ran")
            for expected in [
                "test.bts:1:6: error: unterminated '${'; expected '}' before the end of the line",
                "test.bts:2:1: error: unclosed 'for' block: expected 'end'",
                "test.bts:3:21: error: unknown option '--bogus' for 'search'",
                "test.bts:4:6: error: '$x==a' is one word, so it is always true; write '$x == a'",
                "test.bts:4:3: error: unclosed 'if' block: expected 'end'",
                "test.bts:5:23: error: unknown option '--limt' for 'search' (did you mean '--limit'?)",
            ] {
                #expect(harness.err.contains(expected), "\(expected)\n\(harness.err)")
            }
        }
    }

    @Test func aTrailingBackslashContinuesAPipeline() async throws {
        try await withShell { harness in
            let status = await harness.run("echo hello \\\n  | tr a-z A-Z \\\n  | rev\necho after")
            #expect(status == 0, "\(harness.err)")
            #expect(harness.out == "OLLEH\nafter\n")
        }
    }
}
