import Foundation
import Synchronization

/// `bts test`: runs script files as tests, each in a session of its own (its own variables, `$_`,
/// aliases and, as the caller makes it, library), `jobs` at a time; a file's verdict comes from its
/// exit status (0 passed, 4 an `expect` failed, anything else errored) and its failures from the
/// errors its session reported.
public struct ScriptTestRunner: Sendable {
    /// The files, in the order the results are reported.
    public var files: [String]
    /// How many files run at once (at least 1).
    public var jobs: Int
    /// Start no more files after the first that did not pass.
    public var failFast: Bool
    /// Makes the session one file runs in, writing to `sink`.
    public var makeShell: @Sendable (_ file: String, _ sink: any OutputSink) -> Shell

    public init(files: [String], jobs: Int, failFast: Bool,
                makeShell: @escaping @Sendable (_ file: String, _ sink: any OutputSink) -> Shell) {
        self.files = files
        self.jobs = max(1, jobs)
        self.failFast = failFast
        self.makeShell = makeShell
    }

    /// Runs the files; `finished` hears of each result as it comes (in the order they end). Files
    /// left unstarted by `failFast` or a cancellation have no result.
    public func run(finished: @escaping @Sendable (ScriptTestResult) -> Void) async -> ScriptTestRun {
        let started = Date()
        let clock = ContinuousClock()
        let start = clock.now
        var results: [Int: ScriptTestResult] = [:]
        await withTaskGroup(of: (Int, ScriptTestResult).self) { group in
            var next = 0
            var stopping = false
            func startNext() {
                guard next < files.count, !stopping, !Task.isCancelled else { return }
                let index = next
                let file = files[index]
                next += 1
                group.addTask { (index, await runOne(file)) }
            }
            for _ in 0..<min(jobs, files.count) { startNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                finished(result)
                if failFast, result.outcome != .passed { stopping = true }
                startNext()
            }
        }
        let ordered = files.indices.compactMap { results[$0] }
        return ScriptTestRun(results: ordered, started: started, seconds: Self.seconds(clock.now - start))
    }

    /// One file in a fresh session, shut down after it.
    private func runOne(_ file: String) async -> ScriptTestResult {
        let clock = ContinuousClock()
        let start = clock.now
        let sink = TestOutputSink()
        let shell = makeShell(file, sink)
        var status = await shell.runFile(URL(fileURLWithPath: file), shownAs: file)
        status = await shell.finishEmbeddedJobs(after: status)
        let failures = await shell.recordedFailures
        let expectations = await shell.expectationsRun
        await shell.shutdown()
        let outcome: ScriptTestResult.Outcome
        switch status {
        case ExitStatus.ok.rawValue: outcome = .passed
        case ExitStatus.expectationFailed.rawValue: outcome = .failed
        default: outcome = .errored
        }
        return ScriptTestResult(file: file, outcome: outcome, exitStatus: status, seconds: Self.seconds(clock.now - start),
                                expectations: expectations, failures: failures, standardError: sink.standardError)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// What a test file's session writes: its stdout is dropped (a test's verdict is its exit status
/// and its errors), its stderr kept up to `limit` bytes for the reports.
final class TestOutputSink: OutputSink {
    static let limit = 64 * 1024
    private let captured = Mutex<(text: String, dropped: Int)>(("", 0))

    func write(_ text: String, to stream: OutputStream) {
        guard stream == .standardError else { return }
        captured.withLock { state in
            let room = Self.limit - state.text.utf8.count
            if text.utf8.count <= room {
                state.text += text
            } else {
                state.dropped += text.utf8.count
            }
        }
    }

    /// The stderr kept, with a last line saying how much was left out.
    var standardError: String {
        captured.withLock { state in
            state.dropped == 0 ? state.text : state.text + "… (\(state.dropped) more bytes of stderr not kept)\n"
        }
    }
}
