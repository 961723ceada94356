import BTSShell
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `bts test`: runs script files as tests, each in a session of its own (its own variables, `$_`,
/// aliases and, as the caller makes it, library), `jobs` at a time; a file's verdict comes from its
/// exit status (0 passed, 4 an `expect` failed, anything else errored) and its failures from the
/// errors its session reported. A file that runs past `fileTimeout`, or is running when the run
/// is stopped (``ScriptTestRunControl``), is stopped: an error whose first failure says why.
package struct ScriptTestRunner: Sendable {
    /// The files, in the order the results are reported.
    package var files: [String]
    /// How many files run at once (at least 1).
    package var jobs: Int
    /// Start no more files after the first that did not pass.
    package var failFast: Bool
    /// The most a file may run (nil: no limit).
    package var fileTimeout: Duration?
    /// Makes the session one file runs in, writing to `sink`.
    package var makeShell: @Sendable (_ file: String, _ sink: any OutputSink) -> Shell

    /// How long a stopped file has to end (its session cancelled: requests, `sleep`, loops,
    /// pipelines); after that it is left behind and the run goes on without it.
    package static let stopGrace: Duration = .seconds(2)

    package init(
        files: [String],
        jobs: Int,
        failFast: Bool,
        fileTimeout: Duration? = nil,
        makeShell: @escaping @Sendable (_ file: String, _ sink: any OutputSink) -> Shell
    ) {
        self.files = files
        self.jobs = max(1, jobs)
        self.failFast = failFast
        self.fileTimeout = fileTimeout
        self.makeShell = makeShell
    }

    /// Runs the files; `finished` hears of each result as it comes (in the order they end). Files
    /// left unstarted by `failFast` or a stop have no result. Cancelling the task stops the run
    /// as `control.stop` does (as if by SIGINT).
    package func run(
        control: ScriptTestRunControl = ScriptTestRunControl(),
        finished: @escaping @Sendable (ScriptTestResult) -> Void
    ) async -> ScriptTestRun {
        let started = Date()
        let clock = ContinuousClock()
        let start = clock.now
        var results: [Int: ScriptTestResult] = [:]
        await withTaskCancellationHandler {
            await withTaskGroup(of: (Int, ScriptTestResult).self) { group in
                var next = 0
                var stopping = false
                func startNext() {
                    guard next < files.count, !stopping, control.stopReason == nil else { return }
                    let index = next
                    let file = files[index]
                    next += 1
                    group.addTask { (index, await runOne(file, control: control)) }
                }
                for _ in 0..<min(jobs, files.count) { startNext() }
                while let (index, result) = await group.next() {
                    results[index] = result
                    finished(result)
                    if failFast, result.outcome != .passed { stopping = true }
                    startNext()
                }
            }
        } onCancel: {
            control.stop(.interrupted(signal: SIGINT))
        }
        let ordered = files.indices.compactMap { results[$0] }
        return ScriptTestRun(results: ordered, started: started, seconds: Self.seconds(clock.now - start))
    }

    /// One file in a fresh session, shut down after it; stopped past its time limit or with the run.
    private func runOne(_ file: String, control: ScriptTestRunControl) async -> ScriptTestResult {
        let clock = ContinuousClock()
        let start = clock.now
        let sink = TestOutputSink()
        let shell = makeShell(file, sink)
        let run = ScriptTestFileRun(grace: Self.stopGrace)
        control.add(run)
        run.start {
            var status = await shell.runFile(URL(fileURLWithPath: file), shownAs: file)
            status = await shell.finishEmbeddedJobs(after: status)
            let finished = ScriptTestFileRun.Finished(
                status: status,
                failures: await shell.recordedFailures,
                expectations: await shell.expectationsRun
            )
            await shell.shutdown()
            return finished
        }
        if let fileTimeout { run.limit(to: fileTimeout) }
        let outcome = await run.outcome
        control.remove(run)
        return Self.result(
            file: file,
            outcome: outcome,
            stop: run.stop,
            seconds: Self.seconds(clock.now - start),
            standardOutput: sink.standardOutput,
            standardError: sink.standardError
        )
    }

    /// The verdict on one file: by its exit status, unless it was stopped (an error whose first
    /// failure is the stop's, then what its session reported).
    static func result(
        file: String,
        outcome: ScriptTestFileRun.Outcome,
        stop: ScriptTestStop?,
        seconds: Double,
        standardOutput: String,
        standardError: String
    ) -> ScriptTestResult {
        let finished: ScriptTestFileRun.Finished
        switch outcome {
        case .finished(let value): finished = value
        case .leftBehind: finished = .init(status: ExitStatus.interrupted.rawValue, failures: [], expectations: 0)
        }
        var verdict: ScriptTestResult.Outcome
        switch finished.status {
        case ExitStatus.ok.rawValue: verdict = .passed
        case ExitStatus.expectationFailed.rawValue: verdict = .failed
        default: verdict = .errored
        }
        var failures = finished.failures
        if let stop {
            verdict = .errored
            failures.insert(stop.failure(in: file), at: 0)
        }
        return ScriptTestResult(
            file: file,
            outcome: verdict,
            exitStatus: finished.status,
            seconds: seconds,
            expectations: finished.expectations,
            failures: failures,
            standardOutput: standardOutput,
            standardError: standardError
        )
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
