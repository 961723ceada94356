import BTSShell
import BooksTrackContract
import Foundation
import Testing

/// The interpreter over the live embedded server (real HTTP on an ephemeral port).
@Suite("interpreter")
struct InterpreterTests {
    @Test func variablesPathsAndEcho() async throws {
        try await withShell { harness in
            let status = await harness.run(
                """
                search isbn 9780439023481
                set book ${_.results[0]}
                set isbn ${_.results[0].isbn}
                echo "isbn=$isbn title=${book.title} status=$? last=${_.results[-1].isbn}"
                """
            )
            #expect(status == 0, "\(harness.err)")
            #expect(harness.out.contains("isbn=9780439023481 title=The Hunger Games (The Hunger Games, #1)"))
            #expect(harness.out.contains("status=0 last=9780439023481"))
            let stored = await harness.shell.variables["book"]
            #expect(stored?["isbn"] == .string("9780439023481"), "a lone ${…} keeps its structure")
        }
    }

    @Test func missingPathPointsAtTheStep() async throws {
        try await withShell { harness in
            let status = await harness.run("search isbn 9780439023481\necho ${_.results[0].isbnn}\n")
            #expect(status == 1)
            #expect(
                harness.err == """
                    test.bts:2:6: error: no key 'isbnn' in ${_.results[0]} (did you mean 'isbn'?)
                      2 | echo ${_.results[0].isbnn}
                        |      ^~~~~~~~~~~~~~~~~~~~

                    """
            )
        }
    }

    @Test func undefinedVariableIsAUsageError() async throws {
        try await withShell { harness in
            let status = await harness.run("set color off\necho $colour\n")
            #expect(status == 2)
            #expect(harness.err.contains("test.bts:2:6: error: undefined variable '$colour'"))
        }
    }

    @Test func expectSuccessAndFailureWithBothSides() async throws {
        try await withShell { harness in
            let ok = await harness.run(
                """
                search title "hunger games" --limit 5
                expect ${_.totalCount} > 0
                expect count ${_.results} >= 1
                expect exists ${_.results[0].isbn}
                expect not exists ${_.results[0].nothing}
                expect ${_.results[0].title} contains "Hunger"
                expect ${_.results[0].isbn} matches '^97[89]'
                expect ${_.kind} == title
                """
            )
            #expect(ok == 0, "\(harness.err)")
            harness.sink.reset()
            let failed = await harness.run(
                "search isbn 9780439023481\nexpect ${_.results[0].title} == \"Dune\"\necho unreachable\n"
            )
            #expect(failed == 4)
            #expect(
                harness.err == """
                    test.bts:2:1: error: expectation failed: ${_.results[0].title} == Dune
                      2 | expect ${_.results[0].title} == "Dune"
                        | ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
                      left:  "The Hunger Games (The Hunger Games, #1)"
                      right: "Dune"

                    """
            )
            #expect(!harness.out.contains("unreachable"), "the script stops at the failed expect")
        }
    }

    @Test func expectOnAMissingPathFailsWithFour() async throws {
        try await withShell { harness in
            let status = await harness.run("search isbn 9780439023481\nexpect count ${_.results[5].authors} > 0\n")
            #expect(status == 4)
            #expect(harness.err.contains("count: (missing: index [5] is out of range: ${_.results} has 1 element)"))
        }
    }

    @Test func settingsAndOnErrorContinue() async throws {
        try await withShell { harness in
            let status = await harness.run(
                """
                set output csv
                set onerror continue
                search isbn 9780439023481
                similar 9780000000002
                echo after=$?
                """
            )
            #expect(status == 0, "with 'set onerror continue' the script's status is its last command's")
            #expect(
                harness.out.hasPrefix(
                    "isbn,title,authors,year,pages\n9780439023481,The Hunger Games,Suzanne Collins,2008,374\n"
                )
                    || harness.out.hasPrefix("isbn,title,authors,year,pageCount\n"),
                "\(harness.out)"
            )
            #expect(harness.out.contains("after=1"))
            let settings = await harness.shell.settings
            #expect(settings.output == .csv)
            #expect(settings.onError == .continue)
        }
    }

    @Test func continueOnErrorFlagStillReportsTheFailure() async throws {
        try await withShell(continueOnError: true) { harness in
            let status = await harness.run("similar 9780000000002\necho reached\n")
            #expect(status == 1)
            #expect(harness.out == "reached\n")
        }
    }

    @Test func sourceRunsRelativeToTheScript() async throws {
        try await withShell { harness in
            try harness.write("lib/setup.bts", "set greeting hello\nsource inner.bts\n")
            try harness.write("lib/inner.bts", "set target world\n")
            let status = await harness.run("source lib/setup.bts\necho $greeting $target\n")
            #expect(status == 0, "\(harness.err)")
            #expect(harness.out == "hello world\n")
        }
    }

    @Test func sourcedScriptWithErrorsRunsNothing() async throws {
        try await withShell { harness in
            try harness.write("bad.bts", "set x 1\nserch dune\n")
            let status = await harness.run("source bad.bts\necho no\n")
            #expect(status == 2)
            #expect(harness.err.contains("bad.bts:2:1: error: unknown command 'serch' (did you mean 'search'?)"))
            #expect(await harness.shell.variables["x"] == nil)
            #expect(harness.out.isEmpty)
        }
    }

    @Test func sleepIsCancellable() async throws {
        try await withShell { harness in
            let task = Task { await harness.run("sleep 30s\necho never\n") }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            let status = await task.value
            #expect(status == 130)
            #expect(!harness.out.contains("never"))
        }
    }

    @Test func scriptArgumentsAndExit() async throws {
        try await withShell(scriptArguments: ["dune", "7"]) { harness in
            let status = await harness.run("echo $1 has $2 letters in $0\nexit $2\necho never\n")
            #expect(status == 7)
            #expect(harness.out == "dune has 7 letters in test.bts\n")
            let missing = await harness.run("echo $3\n")
            #expect(missing == 2)
            #expect(harness.err.contains("script argument $3 was not given (the script got 2 arguments)"))
        }
    }

    @Test func errorsLeaveAnErrorObjectInDollarUnderscore() async throws {
        try await withShell { harness in
            let status = await harness.run(
                "set onerror continue\nstatus no-such-job\nexpect ${_.error.code} == NOT_FOUND\n"
            )
            #expect(status == 0, "the expect on the error object passed: \(harness.err)")
            #expect(!harness.err.contains("expectation failed"), "\(harness.err)")
        }
    }
}
