import BooksTrackContract
import Testing

@testable import BooksTrackClient

/// A machine already switched to polling (three refused stream connections).
private func pollingMachine(_ configuration: JobWatchConfiguration = .sse) -> JobWatchStateMachine {
    var machine = JobWatchStateMachine(jobID: "job-1", configuration: configuration)
    _ = machine.start()
    for _ in 0..<3 { _ = machine.connectionFailed(.transport("refused")) }
    return machine
}

@Suite("JobWatchStateMachine: polling and results")
struct JobWatchPollingTests {
    @Test func pollingSeesCompletedThenFetchesResults() {
        var machine = pollingMachine()
        #expect(machine.state == .polling)
        let first = machine.pollSucceeded(
            WatchedJobEvent(status: .processing, progress: 0.5, processedCount: 5, totalCount: 10)
        )
        #expect(first.action == .poll(after: .seconds(2)))
        #expect(
            first.progress == [
                JobProgressUpdate(
                    jobID: "job-1",
                    status: .processing,
                    fraction: 0.5,
                    processedCount: 5,
                    totalCount: 10,
                    channel: .polling
                )
            ]
        )
        // The same answer again reports nothing new but keeps polling.
        let same = machine.pollSucceeded(
            WatchedJobEvent(status: .processing, progress: 0.5, processedCount: 5, totalCount: 10)
        )
        #expect(same == JobWatchStep(action: .poll(after: .seconds(2))))
        let done = machine.pollSucceeded(WatchedJobEvent(status: .completed, progress: 100, totalCount: 10))
        #expect(done.action == .fetchResults)
        #expect(done.progress.first?.fraction == 1.0)
        #expect(done.progress.first?.processedCount == 10)
        #expect(machine.resultsFetched().action == .finish(.completed))
    }

    @Test func pollingReportsFailureAndCancel() {
        var failed = pollingMachine()
        #expect(
            failed.pollSucceeded(
                WatchedJobEvent(
                    status: .failed,
                    errorCode: "E_UNKNOWN_ERROR",
                    errorMessage: "worker died",
                    retryable: true
                )
            ).action
                == .finish(.failed(code: "E_UNKNOWN_ERROR", message: "worker died", retryable: true))
        )
        var canceled = pollingMachine()
        #expect(canceled.pollSucceeded(WatchedJobEvent(status: .canceled)).action == .finish(.canceled))
    }

    @Test func pollWithoutStatusKeepsPolling() {
        var machine = pollingMachine()
        #expect(machine.pollSucceeded(WatchedJobEvent()) == JobWatchStep(action: .poll(after: .seconds(2))))
    }

    @Test func pollFailures() {
        var missing = pollingMachine()
        #expect(
            missing.pollFailed(.http(status: 404, code: "NOT_FOUND")).action == .finish(.notFound(message: "NOT_FOUND"))
        )
        var unauthorized = pollingMachine()
        #expect(unauthorized.pollFailed(.http(status: 401)).action == .finish(.unauthorized))
        var limited = pollingMachine()
        #expect(
            limited.pollFailed(.http(status: 429, code: "RATE_LIMIT_EXCEEDED", retryAfter: .seconds(12))).action
                == .poll(after: .seconds(12))
        )
        #expect(limited.consecutivePollFailures == 0)
        var flaky = pollingMachine()
        for _ in 0..<4 { #expect(flaky.pollFailed(.transport("reset")).action == .poll(after: .seconds(2))) }
        // A success in between resets the count.
        _ = flaky.pollSucceeded(WatchedJobEvent(status: .processing))
        for _ in 0..<4 { _ = flaky.pollFailed(.http(status: 502)) }
        guard case .finish(.unreachable(let reason)) = flaky.pollFailed(.timedOut).action else {
            Issue.record("five failed polls in a row must give up")
            return
        }
        #expect(reason.contains("5 times"))
    }

    @Test func progressIsCarriedAcrossTheSwitchToPolling() {
        var harness = WatchHarness()
        harness.start()
        harness.open()
        harness.receive(
            "id: 1\nevent: processing\ndata: {\"progress\":0.6,\"processedCount\":60,\"totalCount\":100}\n\n"
        )
        harness.receive("event: timeout\ndata: {}\n\n")
        // The status route lags behind the stream: no step back.
        harness.apply(
            harness.machine.pollSucceeded(WatchedJobEvent(status: .processing, progress: 0.55, processedCount: 55))
        )
        harness.apply(
            harness.machine.pollSucceeded(WatchedJobEvent(status: .processing, progress: 0.7, processedCount: 70))
        )
        #expect(harness.progress.map(\.fraction) == [0.6, 0.7])
        #expect(harness.progress.map(\.channel) == [.sse, .polling])
        #expect(harness.progress.last?.totalCount == 100)
    }

    @Test func resultsFailure() {
        var machine = pollingMachine()
        _ = machine.pollSucceeded(WatchedJobEvent(status: .completed))
        #expect(
            machine.resultsFailed(.http(status: 404, code: "NOT_FOUND")).action
                == .finish(.resultsUnavailable(message: "the job completed but its results have expired"))
        )
        var other = pollingMachine()
        _ = other.pollSucceeded(WatchedJobEvent(status: .completed))
        guard case .finish(.resultsUnavailable(let message)) = other.resultsFailed(.transport("reset")).action else {
            Issue.record("expected resultsUnavailable")
            return
        }
        #expect(message.contains("reset"))
        // Out of order: results reported before completion are ignored.
        var early = pollingMachine()
        #expect(early.resultsFetched().action == .none)
    }

    @Test func statusNeverGoesBackwards() {
        var machine = pollingMachine()
        _ = machine.pollSucceeded(WatchedJobEvent(status: .processing, progress: 0.2))
        let back = machine.pollSucceeded(WatchedJobEvent(status: .initialized, progress: 0))
        #expect(back.progress.isEmpty)
        #expect(machine.lastReported?.status == .processing)
    }

    @Test(
        arguments: [
            (0.0, 0.0), (0.5, 0.5), (1.0, 1.0), (100.0, 1.0), (45.0, 0.45), (250.0, 1.0),
        ] as [(Double, Double)]
    )
    func progressNormalisation(raw: Double, expected: Double) {
        #expect(JobWatchStateMachine.normalizedFraction(raw) == expected)
    }

    @Test func invalidProgressIsDropped() {
        #expect(JobWatchStateMachine.normalizedFraction(.nan) == nil)
        #expect(JobWatchStateMachine.normalizedFraction(-0.1) == nil)
        #expect(JobWatchStateMachine.normalizedFraction(.infinity) == nil)
        #expect(JobWatchStateMachine.normalizedFraction(nil) == nil)
    }

    @Test func fractionFromCountsWhenProgressIsMissing() {
        var machine = pollingMachine()
        let step = machine.pollSucceeded(WatchedJobEvent(status: .processing, processedCount: 3, totalCount: 12))
        #expect(step.progress.first?.fraction == 0.25)
    }

    @Test func wireNamesOfStatus() {
        #expect(JobState(wireName: "progress") == .processing)
        #expect(JobState(wireName: "cancelled") == .canceled)
        #expect(JobState(wireName: "COMPLETED") == .completed)
        #expect(JobState(wireName: "error") == nil)  // an SSE `error` event is a stream error, not a job failure
        #expect(JobState(wireName: "Enriching 3 of 10") == nil)
    }
}
