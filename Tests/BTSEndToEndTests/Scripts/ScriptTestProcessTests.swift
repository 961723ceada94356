import Foundation
import ServerTestSupport
import TestSupport
import Testing

/// `bts test`, `bts fmt`, `bts check` and the variables of a CI run, through the real binary; the
/// reports read by their real consumers (junitparser for JUnit, Perl's prove for TAP).
@Suite("bts test, fmt and check", .enabled(if: BTSBinary.isAvailable, Comment(rawValue: BTSBinary.skipReason)))
struct ScriptTestProcessTests {
    /// A directory of scripts and the environment a bts run there gets (private XDG directories,
    /// the shared catalog).
    struct Workspace {
        let directory: URL
        let environment: [String: String]

        init() throws {
            directory = try makeTempDirectory("bts-test-run")
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = directory.appendingPathComponent("home").path
            environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
            environment["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
            environment["XDG_DATA_HOME"] = directory.appendingPathComponent("data").path
            environment["XDG_CACHE_HOME"] = SharedCatalog.directory.path
            environment["BTS_CACHE"] = "off"
            environment.removeValue(forKey: "BTS_API_URL")
            environment.removeValue(forKey: "NO_COLOR")
            self.environment = environment
        }

        @discardableResult
        func write(_ path: String, _ text: String) throws -> URL {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(text.utf8).write(to: url)
            return url
        }

        func read(_ path: String) throws -> String {
            String(decoding: try Data(contentsOf: directory.appendingPathComponent(path)), as: UTF8.self)
        }

        /// bts with `arguments`, in the workspace directory.
        func bts(
            _ arguments: [String],
            stdin: String? = nil,
            extra: [String: String] = [:]
        ) async throws -> ProcessOutcome {
            guard let binary = BTSExecutable.url else { throw BinaryTests.SkipError() }
            _ = try SharedCatalog.get()
            return try await ChildProcess.run(
                binary,
                arguments,
                environment: environment.merging(extra) { $1 },
                directory: directory,
                stdin: stdin
            )
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    /// A suite of a passing, a failing and a broken script, and one that errors at run time.
    static func writeSuite(in workspace: Workspace) throws {
        try workspace.write(
            "tests/pass.bts",
            """
            search title dune --limit 3
            expect ${_.totalCount} > 0
            expect count ${_.results} == 3
            """
        )
        try workspace.write(
            "tests/fail.bts",
            """
            search title dune --limit 3
            expect ${_.totalCount} > 100000
            """
        )
        try workspace.write("tests/sub/broken.bts", "serch dune\nsearch title dune --limt 3\n")
        try workspace.write("tests/sub/missing.bts", "search isbn 9780000000002\n")
        try workspace.write("tests/.hidden/skipped.bts", "exit 9\n")
        try workspace.write("tests/notes.txt", "not a script\n")
    }

    @Test func aSuiteGivesASummaryReportsAndExitOne() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try Self.writeSuite(in: workspace)
        let outcome = try await workspace.bts([
            "test", "tests", "--jobs", "2", "--report-junit", "out/junit.xml",
            "--report-tap", "out/report.tap", "--report-json", "out/report.json",
        ])
        #expect(outcome.status == 1, "\(outcome)")
        let err = outcome.stderr
        #expect(err.contains("tests/pass.bts: Success (2 expects, "), "\(err)")
        #expect(err.contains("tests/fail.bts: Failure (1 of 1 expect failed, "), "\(err)")
        #expect(
            err.contains("  tests/fail.bts:2:1: expectation failed: ${_.totalCount} > 100000\n    left:  "),
            "\(err)"
        )
        #expect(err.contains("    right: 100000"), "\(err)")
        #expect(err.contains("tests/sub/broken.bts: Error (exit 2, "), "\(err)")
        #expect(err.contains("tests/sub/broken.bts:1:1: unknown command 'serch' (did you mean 'search'?)"), "\(err)")
        #expect(err.contains("tests/sub/broken.bts:2:19: unknown option '--limt'"), "every syntax error: \(err)")
        #expect(err.contains("tests/sub/missing.bts: Error (exit 1, "), "\(err)")
        #expect(
            !err.contains("skipped.bts") && !err.contains("notes.txt"),
            "hidden folders and other files are left out"
        )
        #expect(err.contains("Executed files: 4 · passed 1 (25.0%) · failed 1 · errored 2"), "\(err)")
        #expect(!err.contains("\u{1B}"), "no colour on a pipe")
        #expect(outcome.stdout.isEmpty, "the scripts' own output is not the runner's: \(outcome.stdout)")

        // JUnit, as junitparser (the JUnit reader CI tools build on) reads it.
        let junit = try await Self.junitparser(workspace.directory.appendingPathComponent("out/junit.xml"))
        #expect(junit.contains("tests/pass.bts: ok"), "\(junit)")
        #expect(junit.contains("tests/fail.bts: Failure: expectation failed: ${_.totalCount} > 100000"), "\(junit)")
        #expect(
            junit.contains("tests/sub/broken.bts: Error: unknown command 'serch' (did you mean 'search'?)"),
            "\(junit)"
        )
        #expect(junit.contains("tests/sub/missing.bts: Error: "), "\(junit)")
        #expect(junit.contains("totals: 4 tests, 1 failures, 2 errors"), "\(junit)")

        // TAP, through Perl's prove.
        let tap = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/prove"),
            ["--verbose", "--exec", "/bin/cat", "out/report.tap"],
            environment: workspace.environment,
            directory: workspace.directory
        )
        #expect(tap.status != 0, "\(tap)")
        #expect(
            tap.stdout.contains("ok 1 - tests/fail.bts") && tap.stdout.contains("not ok 1 - tests/fail.bts"),
            "\(tap)"
        )
        #expect(tap.stdout.contains("ok 2 - tests/pass.bts"), "\(tap)")
        #expect(tap.stdout.contains("Failed tests:  1, 3-4"), "\(tap)")
        #expect(tap.stdout.contains("Result: FAIL"), "\(tap)")

        // JSON: one result per file, in the order of the files.
        let json =
            try JSONSerialization.jsonObject(with: Data(try workspace.read("out/report.json").utf8)) as? [String: Any]
        let results = json?["results"] as? [[String: Any]] ?? []
        #expect(
            results.map { $0["file"] as? String ?? "" }
                == ["tests/fail.bts", "tests/pass.bts", "tests/sub/broken.bts", "tests/sub/missing.bts"]
        )
        #expect(results.map { $0["outcome"] as? String ?? "" } == ["failed", "passed", "errored", "errored"])
    }

    /// junitparser's view of a JUnit file: one line per testcase (`name: ok` or `name: Kind: message`)
    /// and the totals.
    static func junitparser(_ file: URL) async throws -> String {
        guard let python = ProcessInfo.processInfo.environment["BTS_TEST_PYTHON"] else {
            Issue.record(
                "BTS_TEST_PYTHON is not set: run the tests with scripts/test (it makes the venv with junitparser)"
            )
            return ""
        }
        let program = """
            import sys
            from junitparser import JUnitXml
            xml = JUnitXml.fromfile(sys.argv[1])
            for suite in xml:
                for case in suite:
                    results = [f"{type(r).__name__}: {r.message}" for r in case.result]
                    print(f"{case.name}: " + ("; ".join(results) if results else "ok"))
                print(f"totals: {suite.tests} tests, {suite.failures} failures, {suite.errors} errors")
            """
        let outcome = try await ChildProcess.run(
            URL(fileURLWithPath: python),
            ["-c", program, file.path],
            environment: ProcessInfo.processInfo.environment
        )
        #expect(outcome.status == 0, "\(outcome)")
        return outcome.stdout
    }

    @Test(arguments: [1, 2])
    func testFilesCannotSeeEachOther(jobs: Int) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write(
            "t/a.bts",
            """
            set secret 42
            alias hg search isbn 9780439023481
            set output csv
            search isbn 9780439023481
            save
            library list
            expect count ${_.books} == 1
            """
        )
        try workspace.write(
            "t/b.bts",
            """
            expect ${secret:-unset} == unset
            expect not exists ${_.results}
            library list
            expect count ${_.books} == 0
            """
        )
        try workspace.write("t/c.bts", "hg\n")
        let outcome = try await workspace.bts(["test", "--jobs", "\(jobs)", "t/a.bts", "t/b.bts", "t/c.bts"])
        #expect(outcome.stderr.contains("t/a.bts: Success"), "\(outcome)")
        #expect(
            outcome.stderr.contains("t/b.bts: Success"),
            "another file's variables, $_ and library are not seen: \(outcome)"
        )
        #expect(outcome.stderr.contains("t/c.bts:1:1: unknown command 'hg'"), "nor its aliases: \(outcome)")
        #expect(outcome.status == 1)
        let library = workspace.directory.appendingPathComponent("data/bts/library.sqlite")
        #expect(!FileManager.default.fileExists(atPath: library.path), "the reader's own library is left alone")
    }

    @Test func failFastStopsStartingFilesAndUsageErrorsExitTwo() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write("t/1.bts", "expect 1 == 2\n")
        try workspace.write("t/2.bts", "echo two\n")
        let outcome = try await workspace.bts(["test", "--fail-fast", "t"])
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.stderr.contains("1 file not run (--fail-fast)"), "\(outcome)")
        #expect(!outcome.stderr.contains("t/2.bts"), "\(outcome)")
        let bare = try await workspace.bts(["test"])
        #expect(bare.status == 2 && bare.stderr.contains("See 'bts test --help'"), "named as typed: \(bare)")
        let missing = try await workspace.bts(["test", "nowhere"])
        #expect(missing.status == 2 && missing.stderr.contains("no such file or directory: 'nowhere'"), "\(missing)")
        let empty = try await workspace.bts(["test", "t/.."])
        #expect(empty.status == 1, "a directory with scripts at depth: \(empty)")
        try FileManager.default.createDirectory(
            at: workspace.directory.appendingPathComponent("none"),
            withIntermediateDirectories: true
        )
        let none = try await workspace.bts(["test", "none"])
        #expect(none.status == 2 && none.stderr.contains("no .bts files in 'none'"), "\(none)")
        // A report to a device is written to it, never put in its place.
        let streamed = try await workspace.bts(["test", "t/2.bts", "--report-json", "/dev/stdout"])
        #expect(streamed.status == 0 && streamed.stdout.contains("\"passed\": 1"), "\(streamed)")
        let device = try FileManager.default.attributesOfItem(atPath: "/dev/stdout")[.type] as? FileAttributeType
        #expect(device == .typeSymbolicLink, "/dev/stdout is left as it was")
        try workspace.write("blocker", "a file where a directory would be\n")
        let passing = try await workspace.bts(["test", "t/2.bts", "--report-junit", "blocker/j.xml"])
        #expect(passing.status == 1 && passing.stderr.contains("cannot write the report 'blocker/j.xml'"), "\(passing)")
    }

    @Test func formatIsIdempotentCheckFailsOnUnformattedFilesAndTheFormattedScriptRunsAlike() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let messy = """
            #!/usr/bin/env bts
            # a tour
            set i 0
                while $i < 3   # count
            set i $i + 1
                    if $i == 2;echo two ;else
              echo   "i is  $i"   >> out.txt
                  end
              end


            search title dune --limit 2 |   sort
            """
        try workspace.write("s/messy.bts", messy)
        try workspace.write("s/tidy.bts", "echo tidy\n")
        let check = try await workspace.bts(["fmt", "--check", "s"])
        #expect(check.status == 1, "\(check)")
        #expect(check.stdout == "s/messy.bts\n", "\(check)")
        #expect(try workspace.read("s/messy.bts") == messy, "--check changes nothing")
        let before = try await workspace.bts(["s/messy.bts"])
        // (A script's relative paths are its directory's.)
        let outputBefore = try workspace.read("s/out.txt")
        try FileManager.default.removeItem(at: workspace.directory.appendingPathComponent("s/out.txt"))

        let format = try await workspace.bts(["fmt", "s"])
        #expect(format.status == 0, "\(format)")
        let formatted = try workspace.read("s/messy.bts")
        #expect(
            formatted == """
                #!/usr/bin/env bts
                # a tour
                set i 0
                while $i < 3 # count
                  set i $i + 1
                  if $i == 2; echo two; else
                    echo "i is  $i" >> out.txt
                  end
                end

                search title dune --limit 2 | sort

                """,
            "\(formatted)"
        )
        #expect(try await workspace.bts(["fmt", "--check", "s"]).status == 0, "formatting twice changes nothing")
        let after = try await workspace.bts(["s/messy.bts"])
        #expect(after.status == before.status && after.stdout == before.stdout, "\(before)\n\(after)")
        #expect(try workspace.read("s/out.txt") == outputBefore)

        let piped = try await workspace.bts(["fmt", "-"], stdin: "if 1\necho x\n  end\n")
        #expect(piped.status == 0 && piped.stdout == "if 1\n  echo x\nend\n", "\(piped)")
        let broken = try await workspace.bts(["fmt", "-"], stdin: "echo \"open\n")
        #expect(broken.status == 2 && broken.stdout.isEmpty, "\(broken)")
        #expect(broken.stderr.contains("<stdin>:1:6: error: unterminated double-quoted string"), "\(broken)")
    }

    @Test func checkReportsEveryErrorWithoutARequest() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write(
            "c.bts",
            """
            alias top search title $1 --limit 3
            top dune
            serch dune
            search title dune --limt 5
            while $i lt 3
            end
            expect ${_.totalCount} > 0
            """
        )
        try workspace.write("ok.bts", "search title dune\nexpect ${_.totalCount} > 0\n")
        // A server that counts what reaches it.
        let hits = HitCounter()
        try await TinyServer.counting(hits) { server in
            let api = server.baseURL.absoluteString
            let outcome = try await workspace.bts(["check", "c.bts"], extra: ["BTS_API_URL": api])
            #expect(outcome.status == 2, "\(outcome)")
            #expect(
                outcome.stderr.contains("c.bts:3:1: error: unknown command 'serch' (did you mean 'search'?)"),
                "\(outcome)"
            )
            #expect(outcome.stderr.contains("c.bts:4:19: error: unknown option '--limt'"), "\(outcome)")
            #expect(outcome.stderr.contains("c.bts:5:1: error: cannot read this 'while' condition"), "\(outcome)")
            let clean = try await workspace.bts(["check", "ok.bts"], extra: ["BTS_API_URL": api])
            #expect(clean.status == 0 && clean.stdout.isEmpty && clean.stderr.isEmpty, "\(clean)")
            #expect(hits.total == 0, "a check makes no request")
            // The same server answers a run (the check's silence is not a dead server's).
            _ = try await workspace.bts(["-c", "caps"], extra: ["BTS_API_URL": api])
        }
        #expect(hits.total > 0, "the server was reachable")
    }

    @Test func theEnvironmentAndVariablesFromOutside() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write("ci.env", "# staging\nBASE_ISBN=9780439023481\nLIMIT=2\nWHO=file\n")
        try workspace.write(
            "v.bts",
            """
            search isbn $BASE_ISBN
            expect ${_.results[0].isbn} == $BASE_ISBN
            search title ${env.BTS_TEST_QUERY} --limit $LIMIT
            expect ${_.count} == 2
            echo "$WHO ${env.BTS_TEST_QUERY} ${env.BTS_UNSET_VARIABLE:-fallback}"
            """
        )
        let outcome = try await workspace.bts(
            ["--vars", "ci.env", "--var", "WHO=flag", "v.bts"],
            extra: ["BTS_TEST_QUERY": "dune"]
        )
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stdout.hasSuffix("flag dune fallback\n"), "\(outcome)")
        let tested = try await workspace.bts(["test", "--vars", "ci.env", "v.bts"], extra: ["BTS_TEST_QUERY": "dune"])
        #expect(tested.status == 0, "bts test takes --vars too: \(tested)")
        let before = try await workspace.bts(["--vars", "ci.env", "test", "v.bts"], extra: ["BTS_TEST_QUERY": "dune"])
        #expect(before.status == 0, "bts's options before the subcommand's name are its: \(before)")
        let bad = try await workspace.bts(["--var", "1x=2", "-c", "echo"])
        #expect(bad.status == 2 && bad.stderr.contains("--var '1x=2': '1x' is not a variable name"), "\(bad)")
        let unset = try await workspace.bts(["-c", "echo ${env.BTS_UNSET_VARIABLE}"])
        #expect(
            unset.status == 2 && unset.stderr.contains("environment variable 'BTS_UNSET_VARIABLE' is not set"),
            "\(unset)"
        )
    }

    @Test func everyMatchOfATitleSearch() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let outcome = try await workspace.bts(
            ["-c", "search title love --all; echo ${_.count} of ${_.totalCount}"],
            extra: ["BTS_TEST_UNUSED": "1"]
        )
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stdout.hasSuffix("207 of 207\n"), "\(outcome.stdout.suffix(100))")
    }
}
