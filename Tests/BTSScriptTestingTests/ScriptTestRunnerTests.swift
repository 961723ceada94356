import BTSScriptTesting
import BTSShell
import BTSTerminal
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `bts test`'s runner with real sessions (scripts that need no server): a file past its time
/// limit is stopped whatever it does — `sleep`, a busy `while`, a pipeline that ignores SIGTERM —
/// and the next file runs; a stopped run stops its files and starts no more; what a file and its
/// pipelines write is kept.
@Suite("bts test runner")
struct ScriptTestRunnerTests {
    /// `files` (path, text) written into a fresh directory, and a runner over them.
    struct Suite {
        let directory: URL
        let runner: ScriptTestRunner

        init(_ files: [(String, String)], jobs: Int = 1, fileTimeout: Duration? = nil) throws {
            let directory = try makeTempDirectory("test-runner")
            for (name, text) in files {
                try Data(text.utf8).write(to: directory.appendingPathComponent(name))
            }
            let environment = [
                "HOME": directory.path,
                "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
                "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path,
                "XDG_STATE_HOME": directory.appendingPathComponent("state").path,
                "XDG_DATA_HOME": directory.appendingPathComponent("data").path,
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            ]
            self.directory = directory
            runner = ScriptTestRunner(
                files: files.map { directory.appendingPathComponent($0.0).path },
                jobs: jobs,
                failFast: false,
                fileTimeout: fileTimeout
            ) { file, sink in
                var options = ShellOptions(terminal: .pipes, environment: environment, scriptName: file)
                options.recordsFailures = true
                options.settings.library = .scratch
                return Shell(options: options, sink: sink)
            }
        }

        func name(_ result: ScriptTestResult) -> String { (result.file as NSString).lastPathComponent }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    static let busyLoop = "set looplimit 100000000\nwhile 1 == 1\nend\n"
    /// A pipeline whose shell and child ignore SIGTERM: only the SIGKILL to its group ends it.
    static let stubbornPipeline = "echo go | sh -c 'trap \"\" TERM; sleep 60'\n"

    @Test(arguments: [1, 2])
    func aFilePastItsTimeLimitIsStoppedAndTheNextRuns(jobs: Int) async throws {
        let suite = try Suite(
            [
                ("1-sleep.bts", "echo started\nsleep 60s\n"),
                ("2-busy.bts", Self.busyLoop),
                ("3-pipeline.bts", Self.stubbornPipeline),
                ("4-after.bts", "echo after\nexpect 1 == 1\n"),
            ],
            jobs: jobs,
            fileTimeout: .milliseconds(300)
        )
        defer { suite.remove() }
        let heard = Mutex<[String]>([])
        let run = await suite.runner.run { result in heard.withLock { $0.append(result.file) } }
        #expect(run.results.map(suite.name) == ["1-sleep.bts", "2-busy.bts", "3-pipeline.bts", "4-after.bts"])
        let heardCount = heard.withLock { $0.count }
        #expect(heardCount == 4, "each result is heard as it ends")
        for result in run.results.prefix(3) {
            #expect(result.outcome == .errored, "\(result)")
            #expect(result.failures.first?.message == "timed out after 300ms", "\(result)")
            #expect(result.failures.first?.code == "TIMED_OUT", "\(result)")
        }
        #expect(run.results[0].standardOutput == "started\n", "what it wrote before the stop is kept")
        let after = run.results[3]
        #expect(after.outcome == .passed && after.expectations == 1, "\(after)")
        #expect(after.standardOutput == "after\n")
    }

    @Test func aPipelinesStderrIsKeptWithTheFilesOutput() async throws {
        let suite = try Suite([
            ("pipe.bts", "echo hi | sh -c 'cat; echo oops >&2'\necho done\n")
        ])
        defer { suite.remove() }
        let run = await suite.runner.run { _ in }
        let result = try #require(run.results.first)
        #expect(result.outcome == .passed, "\(result)")
        #expect(result.standardOutput == "hi\ndone\n", "\(result)")
        #expect(result.standardError == "oops\n", "\(result)")
    }

    @Test func aStoppedRunStopsItsRunningFilesAndStartsNoMore() async throws {
        let suite = try Suite([
            ("1-hang.bts", "echo started > started.txt\nsleep 60s\n"),
            ("2-never.bts", "echo never\n"),
        ])
        defer { suite.remove() }
        let control = ScriptTestRunControl()
        let running = Task { await suite.runner.run(control: control) { _ in } }
        let started = try await eventually {
            FileManager.default.fileExists(atPath: suite.directory.appendingPathComponent("started.txt").path)
        }
        #expect(started, "the first file did not start")
        control.stop(.interrupted(signal: SIGTERM))
        let run = await running.value
        #expect(control.stopReason == .interrupted(signal: SIGTERM))
        #expect(run.results.map(suite.name) == ["1-hang.bts"], "no file starts after the stop")
        #expect(run.results.first?.outcome == .errored)
        #expect(run.results.first?.failures.first?.message == "interrupted by SIGTERM")
    }
}
