import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `bts test` as CI runs it, through the real binary: `--filter`, `--file-timeout` (a `sleep`, a
/// busy `while` loop), a signal while a file hangs in a pipeline that ignores SIGTERM, and what a
/// file writes kept in the reports (read by junitparser and Perl's prove), off the terminal.
@Suite(
    "bts test: filter, time limits, signals, captured output",
    .enabled(if: BTSBinary.isAvailable, Comment(rawValue: BTSBinary.skipReason))
)
struct ScriptTestStopProcessTests {
    typealias Workspace = ScriptTestProcessTests.Workspace

    @Test func aFilterSelectsFilesAndOneThatMatchesNoneIsAUsageError() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write("t/search.bts", "echo s\n")
        try workspace.write("t/sub/search_more.bts", "echo m\n")
        try workspace.write("t/library.bts", "expect 1 == 2\n")
        let chosen = try await workspace.bts(["test", "t", "--filter", "*search*", "--report-junit", "j.xml"])
        #expect(chosen.status == 0, "\(chosen)")
        #expect(
            chosen.stderr.contains("t/search.bts: Success") && chosen.stderr.contains("t/sub/search_more.bts: Success")
        )
        #expect(!chosen.stderr.contains("library"), "a file left out is neither run nor listed: \(chosen)")
        #expect(chosen.stderr.contains("Executed files: 2 "), "\(chosen)")
        let junit = try await ScriptTestProcessTests.junitparser(workspace.directory.appendingPathComponent("j.xml"))
        #expect(junit.contains("totals: 2 tests, 0 failures, 0 errors") && !junit.contains("library"), "\(junit)")
        let either = try await workspace.bts(["test", "t", "--filter", "t/library.bts", "--filter", "*/sub/*"])
        #expect(
            either.status == 1 && either.stderr.contains("Executed files: 2 "),
            "any pattern runs a file: \(either)"
        )
        let none = try await workspace.bts(["test", "t", "--filter", "*dune*"])
        #expect(none.status == 2, "\(none)")
        #expect(none.stderr.contains("no test file matches --filter '*dune*' (of 3 found)"), "\(none)")
    }

    @Test func aFilePastItsTimeLimitIsAnErrorInEveryReportAndTheNextFileRuns() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write("t/1-sleep.bts", "echo started\nsleep 60s\n")
        try workspace.write("t/2-busy.bts", "set looplimit 100000000\nwhile 1 == 1\nend\n")
        try workspace.write(
            "t/3-after.bts",
            """
            echo after-\u{1B}[31m-echo
            echo x | sh -c 'cat > /dev/null; printf "pipe-says-\\033]0;title\\007\\n" >&2'
            expect 1 == 1
            """
        )
        let outcome = try await workspace.bts([
            "test", "t", "--jobs", "2", "--file-timeout", "1s",
            "--report-junit", "out/junit.xml", "--report-tap", "out/report.tap", "--report-json", "out/report.json",
        ])
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.stderr.contains("t/1-sleep.bts: Error (exit 130, "), "\(outcome)")
        #expect(
            outcome.stderr.contains("  t/1-sleep.bts: timed out after 1s\n  captured stdout:\n    started\n"),
            "\(outcome)"
        )
        #expect(outcome.stderr.contains("  t/2-busy.bts: timed out after 1s"), "\(outcome)")
        #expect(outcome.stderr.contains("t/3-after.bts: Success (1 expect, "), "\(outcome)")
        #expect(outcome.stderr.contains("Executed files: 3 · passed 1 (33.3%) · failed 0 · errored 2"), "\(outcome)")
        #expect(
            !outcome.stderr.contains("pipe-says") && !outcome.stderr.contains("after-"),
            "a passing file's output and its pipeline's stderr stay off the terminal: \(outcome)"
        )
        #expect(!outcome.stderr.contains("\u{1B}") && outcome.stdout.isEmpty, "\(outcome)")

        // JUnit through junitparser: the errors, and what each file wrote.
        let junitFile = workspace.directory.appendingPathComponent("out/junit.xml")
        let junit = try await ScriptTestProcessTests.junitparser(junitFile)
        #expect(junit.contains("t/1-sleep.bts: Error: timed out after 1s"), "\(junit)")
        #expect(junit.contains("t/2-busy.bts: Error: timed out after 1s"), "\(junit)")
        #expect(junit.contains("t/3-after.bts: ok"), "\(junit)")
        #expect(junit.contains("totals: 3 tests, 0 failures, 2 errors"), "\(junit)")
        let output = try await Self.junitOutput(junitFile)
        #expect(output.contains("t/1-sleep.bts out: 'started\\n'"), "\(output)")
        #expect(output.contains("t/3-after.bts out: 'after-[31m-echo\\n'"), "an echo of a passing file: \(output)")
        #expect(output.contains("t/3-after.bts err: 'pipe-says-]0;title\\n'"), "its pipeline's stderr: \(output)")

        // TAP through prove.
        let tap = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/prove"),
            ["--verbose", "--exec", "/bin/cat", "out/report.tap"],
            environment: workspace.environment,
            directory: workspace.directory
        )
        #expect(
            tap.stdout.contains("not ok 1 - t/1-sleep.bts") && tap.stdout.contains("not ok 2 - t/2-busy.bts"),
            "\(tap)"
        )
        #expect(tap.stdout.contains("ok 3 - t/3-after.bts"), "\(tap)")
        #expect(tap.stdout.contains("#   pipe-says-␛]0;title␇"), "comments, neutralised: \(tap)")
        #expect(tap.stdout.contains("Failed tests:  1-2") && tap.stdout.contains("Result: FAIL"), "\(tap)")
        #expect(!tap.stdout.contains("\u{1B}") && !tap.stderr.contains("Parse errors"), "\(tap)")
        let report = try workspace.read("out/report.tap")
        #expect(report.contains("  message: \"timed out after 1s\"\n  severity: error\n"), "\(report)")

        // JSON.
        let json =
            try JSONSerialization.jsonObject(with: Data(try workspace.read("out/report.json").utf8)) as? [String: Any]
        let results = json?["results"] as? [[String: Any]] ?? []
        #expect(results.map { $0["outcome"] as? String ?? "" } == ["errored", "errored", "passed"], "\(results)")
        let first = (results.first?["failures"] as? [[String: Any]])?.first
        #expect(first?["message"] as? String == "timed out after 1s" && first?["code"] as? String == "TIMED_OUT")
        #expect(results.first?["stdout"] as? String == "started\n")
        #expect(results.last?["stdout"] as? String == "after-\u{1B}[31m-echo\n")
        #expect(results.last?["stderr"] as? String == "pipe-says-\u{1B}]0;title\u{7}\n")
    }

    /// SIGTERM while a file hangs in a pipeline that ignores SIGTERM: bts ends with 143, the
    /// pipeline's process group is gone, the file is an error "interrupted by SIGTERM" in the
    /// reports, and the next file was not run.
    @Test func sigtermEndsTheRunWithItsReportsAndStopsThePipeline() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let group = workspace.directory.appendingPathComponent("group.txt")
        try workspace.write(
            "t/1-hang.bts",
            """
            echo started
            echo go | sh -c 'trap "" TERM; echo $$ > \(group.path); sleep 600'
            """
        )
        try workspace.write("t/2-never.bts", "echo never\n")
        let binary = try #require(BTSExecutable.url)
        _ = try SharedCatalog.get()
        let process = SpawnedProcess()
        process.executableURL = binary
        process.arguments = [
            "test", "t", "--report-junit", "out/junit.xml", "--report-tap", "out/report.tap",
            "--report-json", "out/report.json",
        ]
        process.environment = workspace.environment
        process.currentDirectoryURL = workspace.directory
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stderr = PipeReader(err.fileHandleForReading)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let started = try await eventually {
            ((try? String(contentsOf: group, encoding: .utf8)) ?? "").hasSuffix("\n")
        }
        #expect(started, "the pipeline never started: \(stderr.text)")
        let pipelineGroup =
            pid_t(
                ((try? String(contentsOf: group, encoding: .utf8)) ?? "").trimmingCharacters(
                    in: .whitespacesAndNewlines
                )
            ) ?? 0
        kill(process.processIdentifier, SIGTERM)
        let exited = try await eventually(within: .seconds(60)) { !process.isRunning }
        #expect(exited, "still running 60 s after SIGTERM: \(stderr.text)")
        guard exited else { return }
        process.waitUntilExit()
        let text = await stderr.finished()
        #expect(process.terminationStatus == 143, "\(text)")
        #expect(text.contains("t/1-hang.bts: Error (exit 130, "), "\(text)")
        #expect(text.contains("  t/1-hang.bts: interrupted by SIGTERM"), "\(text)")
        #expect(text.contains("1 file not run (interrupted by SIGTERM)"), "\(text)")
        if pipelineGroup > 0 {
            let gone = try await eventually(within: .seconds(30)) { kill(-pipelineGroup, 0) != 0 }
            #expect(gone, "the pipeline's process group outlived bts")
        }
        let junit = try await ScriptTestProcessTests.junitparser(
            workspace.directory.appendingPathComponent("out/junit.xml")
        )
        #expect(junit.contains("t/1-hang.bts: Error: interrupted by SIGTERM"), "\(junit)")
        #expect(junit.contains("totals: 1 tests, 0 failures, 1 errors"), "\(junit)")
        let report = try workspace.read("out/report.tap")
        #expect(
            report.contains("not ok 1 - t/1-hang.bts") && report.contains("\"interrupted by SIGTERM\""),
            "\(report)"
        )
        let json = try workspace.read("out/report.json")
        #expect(json.contains("\"INTERRUPTED\"") && !json.contains("2-never"), "\(json)")
    }

    /// Each testcase's `<system-out>` and `<system-err>` as junitparser reads them (Python's repr).
    static func junitOutput(_ file: URL) async throws -> String {
        guard let python = ProcessInfo.processInfo.environment["BTS_TEST_PYTHON"] else {
            Issue.record(
                "BTS_TEST_PYTHON is not set: run the tests with scripts/test (it makes the venv with junitparser)"
            )
            return ""
        }
        let program = """
            import sys
            from junitparser import JUnitXml
            for suite in JUnitXml.fromfile(sys.argv[1]):
                for case in suite:
                    print(f"{case.name} out: {case.system_out!r}")
                    print(f"{case.name} err: {case.system_err!r}")
            """
        let outcome = try await ChildProcess.run(
            URL(fileURLWithPath: python),
            ["-c", program, file.path],
            environment: ProcessInfo.processInfo.environment
        )
        #expect(outcome.status == 0, "\(outcome)")
        return outcome.stdout
    }
}
