import BooksTrackContract
import Foundation
import Testing

@testable import BooksTrackServer

@Suite("SSE session and framing")
struct SSESessionTests {
    static func event(_ seq: Int, _ status: JobState, processed: Int = 0, total: Int = 4) -> JobEvent {
        JobEvent(
            jobID: "j1",
            sequence: seq,
            id: "1790000000000-\(seq)",
            payload: JobEventPayload(
                jobId: "j1",
                status: status,
                progress: total == 0 ? 0 : Double(processed) / Double(total),
                processedCount: processed,
                totalCount: total
            )
        )
    }

    let t0 = ContinuousClock.now

    func session(after: Int = 0) -> SSESession {
        SSESession(jobID: "j1", afterSequence: after, heartbeat: .seconds(30), timeout: .seconds(300), now: t0)
    }

    @Test func openingBlocks() {
        #expect(
            SSEFormat.opening(lastEventID: nil, retryMilliseconds: 5000) == ": connection established\nretry: 5000\n\n"
        )
        #expect(
            SSEFormat.opening(lastEventID: "1790000000000-3", retryMilliseconds: 5000)
                == ": reconnected from event 1790000000000-3\nretry: 5000\n\n"
        )
        #expect(
            SSEFormat.opening(lastEventID: "evil\r\nevent: x", retryMilliseconds: 1)
                == ": reconnected from event evilevent: x\nretry: 1\n\n"
        )
    }

    @Test func eventFraming() {
        let text = SSEFormat.event(Self.event(2, .processing, processed: 2))
        #expect(
            text
                == "id: 1790000000000-2\nevent: processing\ndata: {\"jobId\":\"j1\",\"processedCount\":2,\"progress\":0.5,\"status\":\"processing\",\"totalCount\":4}\n\n"
        )
    }

    @Test func duplicatesAndOldEventsAreSkipped() {
        var s = session(after: 2)
        #expect(s.receive(Self.event(1, .initialized), now: t0) == .nothing)
        #expect(s.receive(Self.event(2, .processing), now: t0) == .nothing)
        #expect(s.receive(Self.event(3, .processing, processed: 1), now: t0).jobEvents == 1)
        #expect(s.receive(Self.event(3, .processing, processed: 1), now: t0) == .nothing)
        #expect(s.lastSequence == 3)
    }

    @Test func terminalEventCloses() {
        var s = session()
        let step = s.receive(Self.event(1, .completed, processed: 4), now: t0)
        #expect(step.close)
        #expect(s.receive(Self.event(2, .processing), now: t0) == .nothing)
        #expect(s.tick(now: t0 + .seconds(1000)) == .nothing)
    }

    @Test func heartbeatAfterSilence() {
        var s = session()
        #expect(s.tick(now: t0 + .seconds(29)) == .nothing)
        #expect(s.tick(now: t0 + .seconds(30)) == SSESession.Step(text: ": heartbeat\n\n", jobEvents: 0, close: false))
        #expect(s.tick(now: t0 + .seconds(31)) == .nothing)
        _ = s.receive(Self.event(1, .processing), now: t0 + .seconds(50))
        #expect(s.tick(now: t0 + .seconds(79)) == .nothing)
        #expect(s.tick(now: t0 + .seconds(80)).text == ": heartbeat\n\n")
    }

    @Test func timeoutWithoutProgress() {
        var s = session()
        _ = s.receive(Self.event(1, .processing, processed: 1), now: t0)
        for k in stride(from: 30, to: 300, by: 30) {
            #expect(s.tick(now: t0 + .seconds(k)).close == false)
        }
        let step = s.tick(now: t0 + .seconds(300))
        #expect(step.close)
        #expect(
            step.text
                == "event: timeout\ndata: {\"error\":\"stream_timeout\",\"jobId\":\"j1\",\"lastProgress\":0.25,\"lastStatus\":\"processing\",\"message\":\"no progress for 5 min; reconnect or poll the status route\"}\n\n"
        )
    }

    @Test func liveEndWithoutTerminalIsAStreamError() {
        var s = session()
        let step = s.liveEnded()
        #expect(step.close)
        #expect(step.text.hasPrefix("event: error\ndata: {\"error\":\"stream_error\""))
    }

    @Test func eventIDParsing() {
        #expect(JobEvent.sequence(fromEventID: "1790000000000-12") == 12)
        #expect(JobEvent.sequence(fromEventID: " 1-0 ") == 0)
        #expect(JobEvent.sequence(fromEventID: "12") == nil)
        #expect(JobEvent.sequence(fromEventID: "abc-12") == nil)
        #expect(JobEvent.sequence(fromEventID: "1-x") == nil)
        #expect(JobEvent.sequence(fromEventID: "") == nil)
    }

    @Test func dropPlanAfterEventsAndLimit() {
        let plan = SSEDropPlan(SSEDropFault(afterEvents: 2, maxDrops: 1))
        #expect(plan.shouldDrop(afterEventsWritten: 1) == false)
        #expect(plan.shouldDrop(afterEventsWritten: 2) == true)
        #expect(plan.shouldDrop(afterEventsWritten: 2) == false)
        #expect(plan.dropCount == 1)
    }

    @Test func seededRandomDropsRepeat() {
        func run() -> [Bool] {
            let plan = SSEDropPlan(SSEDropFault(probability: 0.3, seed: 42))
            return (1...50).map { plan.shouldDrop(afterEventsWritten: $0) }
        }
        let a = run()
        #expect(a == run())
        #expect(a.contains(true) && a.contains(false))
    }
}
