import BooksTrackContract
import BooksTrackSupport
import Testing

@testable import BooksTrackClient

/// Random sequences of inputs (seeded): never a crash, and the invariants hold whatever the order.
@Suite("JobWatchStateMachine: fuzz", .onWorkThreads)
struct JobWatchFuzzTests {
    @Test(arguments: 0..<300)
    func randomInputsKeepInvariants(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let configurations: [JobWatchConfiguration] = [
            .sse, .webSocketOnly, JobWatchConfiguration(offersWebSocket: true),
            JobWatchConfiguration(offersPolling: false),
        ]
        var machine = JobWatchStateMachine(
            jobID: "j",
            configuration: configurations[Int.random(in: 0..<configurations.count, using: &random)]
        )
        var steps = [machine.start()]
        let types = [
            "initialized", "processing", "progress", "completed", "failed", "canceled", "timeout", "error", "message",
            "x",
        ]
        let statuses: [JobState?] = [nil] + JobState.allCases
        func randomPayload() -> WatchedJobEvent {
            WatchedJobEvent(
                status: statuses[Int.random(in: 0..<statuses.count, using: &random)],
                progress: Bool.random(using: &random) ? Double.random(in: -1...120, using: &random) : nil,
                processedCount: Bool.random(using: &random) ? Int.random(in: -5...100, using: &random) : nil,
                totalCount: Bool.random(using: &random) ? Int.random(in: 0...100, using: &random) : nil,
                errorCode: Bool.random(using: &random) ? "job_not_found" : nil
            )
        }
        var finishedAt: Int?
        for index in 0..<60 {
            let step: JobWatchStep
            switch Int.random(in: 0..<12, using: &random) {
            case 0: step = machine.streamOpened()
            case 1, 2:
                let id = Bool.random(using: &random) ? "id-\(Int.random(in: 0..<8, using: &random))" : ""
                step = machine.streamEvent(
                    SSEEvent(type: types[Int.random(in: 0..<types.count, using: &random)], data: "{}", lastEventID: id),
                    payload: randomPayload()
                )
            case 3: step = machine.streamComment("heartbeat")
            case 4:
                step = machine.connectionFailed(
                    Bool.random(using: &random)
                        ? .transport("x") : .http(status: Int.random(in: 400...599, using: &random))
                )
            case 5: step = machine.connectionClosed()
            case 6: step = machine.pollSucceeded(randomPayload())
            case 7: step = machine.pollFailed(.http(status: Int.random(in: 400...599, using: &random)))
            case 8: step = machine.webSocketOpened()
            case 9:
                step = machine.webSocketMessage(
                    JobSocketMessage(
                        kind: [.jobProgress, .jobStarted, .jobComplete, .ping, .error][
                            Int.random(in: 0..<5, using: &random)
                        ],
                        payload: randomPayload()
                    )
                )
            case 10:
                step = machine.webSocketClosed(
                    code: [nil, 1000, 1001, 1008, 1011, 1013][Int.random(in: 0..<6, using: &random)]
                )
            default: step = Bool.random(using: &random) ? machine.resultsFetched() : machine.resultsFailed(.timedOut)
            }
            steps.append(step)
            if machine.isFinished, finishedAt == nil { finishedAt = index }
        }
        let updates = steps.flatMap(\.progress)
        // Progress never goes backwards, fractions stay in 0…1, event ids never repeat.
        for (previous, next) in zip(updates, updates.dropFirst()) {
            #expect((next.fraction ?? 0) >= (previous.fraction ?? 0))
            #expect((next.processedCount ?? 0) >= (previous.processedCount ?? 0))
            #expect(next.status.rank >= previous.status.rank)
        }
        #expect(updates.allSatisfy { ($0.fraction ?? 0) >= 0 && ($0.fraction ?? 0) <= 1 })
        var ids = updates.compactMap(\.eventID)
        ids = zip(ids, [""] + ids).filter { $0 != $1 }.map(\.0)  // inherited ids repeat back to back only
        #expect(Set(ids).count == ids.count)
        // Exactly one finish, and nothing after it.
        let finishes = steps.filter { if case .finish = $0.action { return true } else { return false } }
        #expect(finishes.count <= 1)
        if let finishIndex = steps.firstIndex(where: {
            if case .finish = $0.action { return true } else { return false }
        }) {
            #expect(steps[(finishIndex + 1)...].allSatisfy { $0.action == .none && $0.progress.isEmpty })
        }
        _ = finishedAt
    }
}
