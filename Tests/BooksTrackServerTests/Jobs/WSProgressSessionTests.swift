import BooksTrackContract
import Foundation
import Testing

@testable import BooksTrackServer

@Suite("WebSocket progress session")
struct WSProgressSessionTests {
    let t0 = ContinuousClock.now

    func session() -> WSProgressSession {
        WSProgressSession(
            jobID: "j1",
            pipeline: .batchEnrichment,
            readyTimeout: .seconds(10),
            pingInterval: .seconds(30),
            now: t0
        )
    }

    func types(_ outputs: [WSProgressSession.Output]) -> [String] {
        outputs.map {
            switch $0 {
            case .send(let m): return m.type.rawValue
            case .close(let code, _): return "close \(code)"
            }
        }
    }

    @Test func eventsWaitForReadyThenFlowInOrder() {
        var s = session()
        #expect(s.event(SSESessionTests.event(1, .initialized), summary: nil, timestamp: 1, now: t0).isEmpty)
        #expect(s.event(SSESessionTests.event(2, .processing), summary: nil, timestamp: 1, now: t0).isEmpty)
        #expect(
            types(s.clientText(#"{"type":"ready"}"#, timestamp: 2, now: t0)) == [
                "ready_ack", "job_started", "job_progress",
            ]
        )
        #expect(
            types(s.event(SSESessionTests.event(3, .processing, processed: 2), summary: nil, timestamp: 3, now: t0))
                == ["job_progress"]
        )
        let summary = WSProgressSession.Summary(successCount: 3, failureCount: 1, durationMs: 12, expiresAt: "x")
        let end = s.event(SSESessionTests.event(4, .completed, processed: 4), summary: summary, timestamp: 4, now: t0)
        #expect(types(end) == ["job_complete", "close 1000"])
        guard case .send(let message) = end.first, case .jobComplete(let payload) = message.payload else {
            Issue.record("expected job_complete")
            return
        }
        #expect(
            payload.summary
                == .init(totalProcessed: 4, successCount: 3, failureCount: 1, duration: 12, resourceId: "j1")
        )
        #expect(message.pipeline == .batchEnrichment)
        #expect(s.clientText(#"{"type":"ping"}"#, timestamp: 5, now: t0).isEmpty)
    }

    @Test func pingGetsPongAndIdlePings() {
        var s = session()
        _ = s.clientText(#"{"type":"ready"}"#, timestamp: 1, now: t0)
        #expect(types(s.clientText(#"{"type":"ping"}"#, timestamp: 1, now: t0)) == ["pong"])
        #expect(s.tick(timestamp: 1, now: t0 + .seconds(29)).isEmpty)
        #expect(types(s.tick(timestamp: 1, now: t0 + .seconds(30))) == ["ping"])
        #expect(s.clientText("not json", timestamp: 1, now: t0).isEmpty)
    }

    @Test func readyTimeoutStartsStreaming() {
        var s = session()
        _ = s.event(SSESessionTests.event(1, .processing), summary: nil, timestamp: 1, now: t0)
        #expect(s.tick(timestamp: 1, now: t0 + .seconds(9)).isEmpty)
        #expect(types(s.tick(timestamp: 1, now: t0 + .seconds(10))) == ["job_started", "job_progress"])
    }

    @Test func failedAndCanceledAreErrors() {
        var s = session()
        _ = s.clientText(#"{"type":"ready"}"#, timestamp: 1, now: t0)
        var failed = SSESessionTests.event(1, .failed)
        failed.payload.error = JobError(code: .batchProcessingFailed, message: "boom")
        let out = s.event(failed, summary: nil, timestamp: 1, now: t0)
        #expect(types(out) == ["error", "close 1000"])
        guard case .send(let m) = out.first, case .error(let e) = m.payload else {
            Issue.record("expected error")
            return
        }
        #expect(e.code == .batchProcessingFailed)

        var c = session()
        _ = c.clientText(#"{"type":"ready"}"#, timestamp: 1, now: t0)
        #expect(
            types(c.event(SSESessionTests.event(1, .canceled), summary: nil, timestamp: 1, now: t0)) == [
                "error", "close 1000",
            ]
        )
    }

    @Test func shutdownIsGoingAway() {
        var s = session()
        #expect(types(s.liveEnded()) == ["close 1001"])
        var t = session()
        #expect(types(t.shutdown()) == ["close 1001"])
    }

    /// A job that ended before the client said `ready`: the live stream ends at once, the terminal
    /// event is held, and `ready` still delivers the whole flow.
    @Test func liveEndAfterAHeldTerminalEventIsNormal() {
        var s = session()
        _ = s.event(SSESessionTests.event(1, .processing), summary: nil, timestamp: 1, now: t0)
        _ = s.event(SSESessionTests.event(2, .completed, processed: 4), summary: nil, timestamp: 1, now: t0)
        #expect(s.liveEnded().isEmpty)
        #expect(
            types(s.clientText(#"{"type":"ready"}"#, timestamp: 2, now: t0)) == [
                "ready_ack", "job_started", "job_progress", "job_complete", "close 1000",
            ]
        )
    }
}
