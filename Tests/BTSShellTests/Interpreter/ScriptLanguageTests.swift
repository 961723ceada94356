import BooksTrackContract
import Foundation
import Testing

@testable import BTSShell

/// What a script run in CI needs: the environment, variables from outside, `while`,
/// counting, every page.
@Suite("scripts for CI")
struct ScriptLanguageTests {
    @Test func whileCountsBreaksAndContinues() async throws {
        try await withShell { harness in
            let status = await harness.run(
                """
                set i 0
                while $i < 10
                  set i $i + 1
                  if $i == 2; continue; end
                  if $i == 5; break; end
                  echo i=$i
                end
                echo after=$i
                while false; echo never; end
                """
            )
            #expect(status == 0, "\(harness.err)")
            #expect(harness.out == "i=1\ni=3\ni=4\nafter=5\n")
        }
    }

    @Test func aRunawayWhileStopsAtTheLoopLimit() async throws {
        try await withShell { harness in
            let status = await harness.run("set looplimit 25\nset n 0\nwhile true\n  set n $n + 1\nend\necho never")
            #expect(status == 1, "\(harness.err)")
            #expect(
                harness.err.contains("test.bts:3:1: error: 'while' stopped after 25 rounds (the loop limit)"),
                "\(harness.err)"
            )
            #expect(harness.err.contains("'set looplimit N' allows more rounds"))
            #expect(!harness.out.contains("never"))
            let n = await harness.shell.variables["n"]
            #expect(n == .number(25))
        }
    }

    @Test func whileIsCheckedWithTheWholeScript() async throws {
        try await withShell { harness in
            let status = await harness.run("echo first\nwhile\nend\nwhile $x lt 3\nend\nwhile 1; serch x; end")
            #expect(status == 2)
            #expect(!harness.out.contains("first"), "nothing ran")
            #expect(harness.err.contains("test.bts:2:6: error: missing condition after 'while'"), "\(harness.err)")
            #expect(
                harness.err.contains(
                    "cannot read this 'while' condition; expected one of: VALUE · A OP B "
                        + "(OP: == != < <= > >= contains matches) · exists ${PATH} · count ${PATH} OP N"
                ),
                "\(harness.err)"
            )
            #expect(harness.err.contains("unknown command 'serch'"), "\(harness.err)")
        }
    }

    @Test func helpOnAKeywordSaysWhatItIs() async throws {
        try await withShell { harness in
            #expect(await harness.run("help while") == 2)
            #expect(harness.err.contains("'while' is a keyword of the language, not a command"), "\(harness.err)")
            #expect(!harness.err.contains("did you mean 'while'"), "\(harness.err)")
            #expect(await harness.run("help set --output table") == 0)
            #expect(harness.out.contains("looplimit") && harness.out.contains("(1–100000000)"), "\(harness.out)")
        }
    }

    @Test func whilePagesUntilMoreEnds() async throws {
        try await withShell { harness in
            let status = await harness.run(
                """
                search title love --limit 40
                set seen ${_.count}
                while ${_.count} == 40
                  more
                  set seen $seen + ${_.count}
                end
                expect $seen == ${_.totalCount}
                echo seen=$seen
                """
            )
            #expect(status == 0, "\(harness.err)")
            #expect(harness.out.hasSuffix("seen=207\n"), "\(harness.out.suffix(200))")
        }
    }

    @Test(arguments: [
        ("set n 7 + 5", 12.0), ("set n 7 - 10", -3), ("set n 6 * 7", 42), ("set n 7 / 2", 3), ("set n -7 / 2", -3),
        ("set n 7 % 3", 1), ("set n -7 % 3", -1), ("set n +4 * -2", -8),
    ])
    func arithmetic(line: String, expected: Double) async throws {
        try await withShell { harness in
            #expect(await harness.run(line) == 0, "\(harness.err)")
            #expect(await harness.shell.variables["n"] == .number(expected))
        }
    }

    @Test(arguments: [
        ("set n 1 / 0", "'/' by zero"),
        ("set n 1.5 + 1", "'1.5' is not an integer"),
        ("set n x + 1", "'x' is not an integer"),
        ("set n 9007199254740992 + 1", "beyond 2^53"),
        ("set n 99999999999999999999 * 2", "is not an integer"),
    ])
    func arithmeticFailuresAreSentences(line: String, message: String) async throws {
        try await withShell { harness in
            #expect(await harness.run(line) == 1)
            #expect(harness.err.contains(message), "\(harness.err)")
            #expect(await harness.shell.variables["n"] == nil)
        }
    }

    @Test func arithmeticShapesAreCheckedBeforeRunning() async throws {
        try await withShell { harness in
            #expect(await harness.run("echo ran\nset n 1 2\nset n 1 '+' 2\nset output json + 1\nset n 1 + 2 + 3") == 2)
            #expect(!harness.out.contains("ran"))
            #expect(harness.err.components(separatedBy: "'set' takes one VALUE").count == 3, "\(harness.err)")
            #expect(harness.err.contains("too many arguments for 'set'"), "\(harness.err)")
            #expect(harness.err.contains("'output' is a setting: it takes one value, not arithmetic"), "\(harness.err)")
        }
    }

    @Test func theEnvironmentIsReadByName() async throws {
        try await withShell(environment: ["BTS_TEST_TOKEN": "s3cret", "EMPTY": ""]) { harness in
            let status = await harness.run(
                """
                echo token=${env.BTS_TEST_TOKEN} home=${env.HOME:-none}
                echo missing=${env.BTS_NOT_SET_ANYWHERE:-fallback} empty=${env.EMPTY:-dflt}
                expect ${env.BTS_TEST_TOKEN} == s3cret
                """
            )
            #expect(status == 0, "\(harness.err)")
            #expect(harness.out.hasPrefix("token=s3cret home=/"))
            #expect(harness.out.contains("missing=fallback empty=dflt\n"))
        }
        try await withShell { harness in
            #expect(await harness.run("echo ${env.BTS_NOT_SET_ANYWHERE}") == 2)
            #expect(harness.err.contains("environment variable 'BTS_NOT_SET_ANYWHERE' is not set"), "\(harness.err)")
            #expect(harness.err.contains("${env.BTS_NOT_SET_ANYWHERE:-TEXT} gives TEXT when it is not set"))
            #expect(await harness.run("echo $env") == 2)
            #expect(harness.err.contains("write ${env.NAME}"), "\(harness.err)")
            #expect(await harness.run("set env 1") == 2)
            #expect(await harness.run("for env in a; end") == 2)
        }
    }

    @Test func everyPageIsOneList() async throws {
        try await withShell { harness in
            #expect(await harness.run("search title love --all") == 0, "\(harness.err)")
            let result = await harness.lastResult()
            #expect(result["totalCount"] == .number(207))
            #expect(result["count"] == .number(207))
            let isbnsAndTitles = result["results"]?.arrayValue?.map { $0.compactJSON } ?? []
            #expect(isbnsAndTitles.count == 207 && Set(isbnsAndTitles).count == 207, "no book twice")
            #expect(await harness.run("search author king --all --page 2") == 2)
            #expect(harness.err.contains("--page cannot be combined with --all"), "\(harness.err)")
            #expect(await harness.run("search --title dune --author herbert --all") == 2)
            #expect(harness.err.contains("--all follows the pages of a title or author search"), "\(harness.err)")
        }
    }

    @Test func deeperPagesKeepTheOrderOfEarlierOnes() async throws {
        try await withShell { harness in
            #expect(await harness.run("search title the --limit 100 --offset 150") == 0)
            let page = await harness.lastResult()["results"]?.arrayValue ?? []
            #expect(await harness.run("search title the --all") == 0)
            let all = await harness.lastResult()["results"]?.arrayValue ?? []
            #expect(
                page.count == 100 && all.count > 1_000,
                "the catalog has more than 1,000 'the' titles (\(all.count))"
            )
            #expect(Array(all[150..<250]) == page)
        }
    }
}

@Suite("variables from outside")
struct ScriptVariablesTests {
    @Test func aVariablesFileReadsAsADotEnvFile() throws {
        let text = """
            # staging
            BASE=https://staging.example
            export TOKEN="a \\"quoted\\" value\\n"
            LITERAL='no $expansion # here'
              SPACED = padded value   # a comment

            EMPTY=
            """
        let pairs = try ScriptVariables.parse(text, name: "ci.env").get()
        #expect(pairs.map(\.0) == ["BASE", "TOKEN", "LITERAL", "SPACED", "EMPTY"])
        #expect(
            pairs.map(\.1) == [
                "https://staging.example", "a \"quoted\" value\n", "no $expansion # here", "padded value", "",
            ]
        )
    }

    @Test(arguments: [
        ("NOEQUALS", "ci.env:1: expected NAME=VALUE"),
        ("1X=2", "ci.env:1: '1X' is not a variable name"),
        ("env=2", "ci.env:1: 'env' is reserved"),
        ("A=ok\nB=\"open", "ci.env:2: the value's \" is not closed"),
        ("A='x' trailing", "ci.env:1: unexpected text after the closing '"),
    ])
    func aBadLineIsNamed(text: String, message: String) {
        guard case .failure(let failure) = ScriptVariables.parse(text, name: "ci.env") else {
            Issue.record("\(text) was accepted")
            return
        }
        #expect(failure.message.hasPrefix(message), "\(failure.message)")
    }

    @Test func assignmentsWinOverFilesInOrder() throws {
        let directory = try makeTempDirectory("vars")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("a.env")
        let second = directory.appendingPathComponent("b.env")
        try Data("A=1\nB=1\n".utf8).write(to: first)
        try Data("B=2\nC=2\n".utf8).write(to: second)
        let variables = try ScriptVariables.collect(
            files: [first.path, second.path],
            assignments: ["C=3", "D=x=y", "C=4"]
        ).get()
        #expect(variables == ["A": "1", "B": "2", "C": "4", "D": "x=y"])
        guard
            case .failure(let missing) = ScriptVariables.collect(
                files: [directory.appendingPathComponent("nope").path],
                assignments: []
            )
        else {
            Issue.record("a missing file was accepted")
            return
        }
        #expect(missing.message.contains("cannot read the variables file"), "\(missing.message)")
        guard case .failure(let bad) = ScriptVariables.collect(files: [], assignments: ["novalue"]) else {
            Issue.record("an assignment without '=' was accepted")
            return
        }
        #expect(bad.message == "--var 'novalue': expected NAME=VALUE")
    }

    @Test func startingVariablesAreTheScriptsUntilItSetsThem() async throws {
        let directory = try makeTempDirectory("vars-shell")
        defer { try? FileManager.default.removeItem(at: directory) }
        var options = ShellOptions(backend: BackendRequest(forceEmbedded: true), environment: ["HOME": directory.path])
        options.variables = ["limit": "2", "who": "ci"]
        let sink = BufferOutputSink()
        let shell = Shell(options: options, sink: sink)
        let status = await shell.run("echo $who ${limit}; set who script; echo $who", name: "v.bts")
        await shell.shutdown()
        #expect(status == 0, "\(sink.standardError)")
        #expect(sink.standardOutput == "ci 2\nscript\n")
    }
}
