import BooksTrackClient
import BooksTrackContract
import Testing

private func socketMachine(_ configuration: JobWatchConfiguration = .webSocketOnly) -> JobWatchStateMachine {
    var machine = JobWatchStateMachine(jobID: "batch-1", configuration: configuration)
    _ = machine.start()
    _ = machine.webSocketOpened()
    return machine
}

@Suite("JobWatchStateMachine: WebSocket")
struct JobWatchWebSocketTests {
    @Test func batchJobOverWebSocketToResults() {
        var machine = JobWatchStateMachine(jobID: "batch-1", configuration: .webSocketOnly)
        #expect(machine.start().action == .openWebSocket(after: .zero))
        #expect(machine.webSocketOpened().action == .none)
        #expect(machine.webSocketMessage(JobSocketMessage(kind: .readyAck)).action == .none)
        #expect(machine.webSocketMessage(JobSocketMessage(kind: .ping)).action == .sendPong)
        let started = machine.webSocketMessage(
            JobSocketMessage(kind: .jobStarted, payload: WatchedJobEvent(totalCount: 4))
        )
        #expect(started.progress.map(\.status) == [.processing])
        let halfway = machine.webSocketMessage(
            JobSocketMessage(
                kind: .jobProgress,
                payload: WatchedJobEvent(progress: 0.5, processedCount: 2)
            )
        )
        #expect(
            halfway.progress == [
                JobProgressUpdate(
                    jobID: "batch-1",
                    status: .processing,
                    fraction: 0.5,
                    processedCount: 2,
                    totalCount: 4,
                    channel: .webSocket
                )
            ]
        )
        let complete = machine.webSocketMessage(JobSocketMessage(kind: .jobComplete))
        #expect(complete.action == .fetchResults)
        #expect(complete.progress.first?.fraction == 1)
        // The server then closes with 1000: already handled.
        #expect(machine.webSocketClosed(code: 1000).action == .none)
        #expect(machine.resultsFetched().action == .finish(.completed))
    }

    @Test func closeCodes() {
        var goingAway = socketMachine()
        #expect(goingAway.webSocketClosed(code: 1001).action == .openWebSocket(after: .seconds(5)))
        var tryLater = socketMachine()
        #expect(tryLater.webSocketClosed(code: 1013).action == .openWebSocket(after: .seconds(30)))
        var badToken = socketMachine()
        #expect(badToken.webSocketClosed(code: 1008).action == .finish(.unauthorized))
        var doneEarly = socketMachine()
        guard case .finish(.unreachable) = doneEarly.webSocketClosed(code: 1000).action else {
            Issue.record("1000 without job_complete and without polling must give up")
            return
        }
        var doneEarlyWithPolling = socketMachine(JobWatchConfiguration(offersSSE: false, offersWebSocket: true))
        #expect(doneEarlyWithPolling.webSocketClosed(code: 1000).action == .poll(after: .zero))
    }

    @Test func serverErrorsBackOffThenGiveUp() {
        var machine = socketMachine()
        #expect(machine.webSocketClosed(code: 1011).action == .openWebSocket(after: .seconds(1)))
        #expect(machine.webSocketOpened().action == .none)
        #expect(machine.webSocketClosed(code: nil).action == .openWebSocket(after: .seconds(2)))
        guard case .finish(.unreachable(let reason)) = machine.webSocketClosed(code: 1011).action else {
            Issue.record("expected unreachable")
            return
        }
        #expect(reason.contains("1011"))
    }

    @Test func serverErrorsFallBackToPollingWhenOffered() {
        var machine = socketMachine(JobWatchConfiguration(offersSSE: false, offersWebSocket: true))
        _ = machine.webSocketClosed(code: 1011)
        _ = machine.webSocketClosed(code: 1011)
        #expect(machine.webSocketClosed(code: 1011).action == .poll(after: .zero))
    }

    @Test func aSocketThatDeliveredProgressResetsTheCount() {
        var machine = socketMachine()
        _ = machine.webSocketClosed(code: 1011)
        _ = machine.webSocketOpened()
        _ = machine.webSocketClosed(code: 1011)
        #expect(machine.consecutiveFailures == 2)
        _ = machine.webSocketOpened()
        _ = machine.webSocketMessage(JobSocketMessage(kind: .jobProgress, payload: WatchedJobEvent(progress: 0.1)))
        #expect(machine.webSocketClosed(code: 1001).action == .openWebSocket(after: .seconds(5)))
        #expect(machine.consecutiveFailures == 0)
    }

    @Test func errorMessageFinishesAsFailed() {
        var machine = socketMachine()
        #expect(
            machine.webSocketMessage(
                JobSocketMessage(
                    kind: .error,
                    payload: WatchedJobEvent(
                        errorCode: "E_BATCH_PROCESSING_FAILED",
                        errorMessage: "provider down",
                        retryable: true
                    )
                )
            ).action
                == .finish(.failed(code: "E_BATCH_PROCESSING_FAILED", message: "provider down", retryable: true))
        )
    }

    @Test func messageKindsFromWire() {
        #expect(JobSocketMessage.Kind(type: "ready_ack") == .readyAck)
        #expect(JobSocketMessage.Kind(type: "job_progress") == .jobProgress)
        #expect(JobSocketMessage.Kind(type: "job_complete") == .jobComplete)
        #expect(JobSocketMessage.Kind(type: "hello") == .other("hello"))
    }

    @Test func streamInputsAreIgnoredOnTheSocket() {
        var machine = socketMachine()
        #expect(machine.streamEvent(SSEEvent(type: "completed", data: "{}"), payload: nil).action == .none)
        #expect(machine.pollSucceeded(WatchedJobEvent(status: .completed)).action == .none)
    }
}
