import BooksTrackClient
import BooksTrackContract
import Testing

private let streamPreamble = ": connection established\nretry: 5000\n\n"

@Suite("JobWatchStateMachine: SSE")
struct JobWatchStreamTests {
    @Test func startChoosesTheBestChannel() {
        var sse = JobWatchStateMachine(jobID: "j")
        #expect(sse.start().action == .openStream(lastEventID: nil, after: .zero))
        #expect(sse.state == .connecting)
        #expect(sse.start().action == .none)  // only once
        var socket = JobWatchStateMachine(jobID: "j", configuration: .webSocketOnly)
        #expect(socket.start().action == .openWebSocket(after: .zero))
        var pollOnly = JobWatchStateMachine(jobID: "j", configuration: JobWatchConfiguration(offersSSE: false))
        #expect(pollOnly.start().action == .poll(after: .zero))
        var nothing = JobWatchStateMachine(
            jobID: "j",
            configuration: JobWatchConfiguration(
                offersSSE: false,
                offersWebSocket: false,
                offersPolling: false
            )
        )
        guard case .finish(.unreachable) = nothing.start().action else {
            Issue.record("no channel must finish as unreachable")
            return
        }
    }

    @Test func completedEventWithInvalidJSONIsNotTakenAsTheEnd() {
        var harness = WatchHarness()
        harness.start()
        harness.open()
        harness.receive(streamPreamble)
        let action = harness.receive("id: 9\nevent: completed\ndata: {not json\n\n")
        #expect(action != .fetchResults)
        #expect(!harness.machine.isFinished)
        #expect(harness.progress.allSatisfy { $0.status != .completed })
        // A completed event without data (or with readable data) still ends the job.
        var plain = WatchHarness()
        plain.start()
        plain.open()
        plain.receive(streamPreamble)
        #expect(
            plain.receive("id: 9\nevent: completed\ndata: {\"status\":\"completed\",\"progress\":1}\n\n")
                == .fetchResults
        )
    }

    @Test func happyPathStreamsProgressThenFetchesResults() {
        let log = FakeEventLog.importJob(total: 40, step: 10)
        var harness = WatchHarness()
        harness.start()
        harness.open()
        #expect(harness.receive(streamPreamble) == .none)
        #expect(harness.machine.reconnectionTime == .seconds(5))
        var last: JobWatchAction = .none
        for entry in log.entries {
            last = harness.receive(FakeEventLog.render(entry) + ": heartbeat\n")
        }
        #expect(last == .fetchResults)
        #expect(harness.machine.state == .fetchingResults)
        #expect(harness.progress.map(\.fraction) == [0, 0.25, 0.5, 0.75, 1])
        #expect(harness.progress.map(\.status) == [.initialized, .processing, .processing, .processing, .completed])
        #expect(harness.progress.map(\.eventID) == log.ids)
        #expect(harness.progress.allSatisfy { $0.channel == .sse && $0.jobID == "job-1" && $0.totalCount == 40 })
        // The stream closes after the terminal event: nothing more to do.
        #expect(harness.serverClosed() == .none)
        #expect(harness.apply(harness.machine.resultsFetched()) == .finish(.completed))
        #expect(harness.machine.isFinished)
    }

    @Test func cutThreeTimesMidJobResumesWithLastEventIDAndSeesEveryEventOnce() {
        let log = FakeEventLog.importJob(total: 100, step: 10)  // 11 events
        var harness = WatchHarness()
        #expect(harness.start() == .openStream(lastEventID: nil, after: .zero))
        // (events delivered on this connection, events the server replays again on the next one)
        let plan: [(deliver: Int, overlapNext: Int)] = [(3, 1), (4, 2), (1, 1), (99, 0)]
        var lastID: String?
        for (connection, step) in plan.enumerated() {
            harness.open()
            harness.receive(
                connection == 0 ? streamPreamble : ": reconnected from event \(lastID ?? "")\nretry: 5000\n\n"
            )
            let overlap = connection == 0 ? 0 : plan[connection - 1].overlapNext
            let entries = log.replay(after: lastID, overlap: overlap)
            // Replayed events are resent, then `deliver` new ones.
            let toSend = Array(entries.prefix(overlap + step.deliver))
            var action: JobWatchAction = .none
            for entry in toSend { action = harness.receive(FakeEventLog.render(entry)) }
            if let sent = toSend.last { lastID = sent.id }
            if action == .fetchResults { break }
            let reconnect = harness.cut()
            #expect(reconnect == .openStream(lastEventID: lastID, after: .seconds(5)), "connection \(connection)")
            #expect(harness.machine.state == .waitingToReconnect)
            #expect(harness.machine.consecutiveFailures == 0, "a connection that delivered events is not a failure")
        }
        #expect(harness.actions.last == .fetchResults)
        #expect(harness.progress.compactMap(\.eventID) == log.ids, "every event exactly once, in order")
        let fractions = harness.progress.compactMap(\.fraction)
        #expect(fractions == fractions.sorted())
        #expect(fractions.last == 1)
    }

    @Test func threeRefusedConnectionsSwitchToPolling() {
        var harness = WatchHarness()
        harness.start()
        #expect(
            harness.apply(harness.machine.connectionFailed(.transport("connection refused")))
                == .openStream(lastEventID: nil, after: .seconds(3))
        )
        #expect(
            harness.apply(harness.machine.connectionFailed(.transport("connection refused")))
                == .openStream(lastEventID: nil, after: .seconds(3))
        )
        #expect(
            harness.apply(harness.machine.connectionFailed(.transport("connection refused"))) == .poll(after: .zero)
        )
        #expect(harness.machine.state == .polling)
        // Late reports from the old channel are ignored.
        #expect(harness.apply(harness.machine.connectionFailed(.transport("late"))) == .none)
    }

    @Test func connectionsWithoutNewEventsCountAsFailures() {
        var harness = WatchHarness()
        harness.start()
        for attempt in 1...3 {
            harness.open()
            harness.receive(": connection established\nretry: 1500\n\n: heartbeat\n")
            let action = harness.serverClosed()
            if attempt < 3 {
                #expect(action == .openStream(lastEventID: nil, after: .milliseconds(1500)))
            } else {
                #expect(action == .poll(after: .zero))
            }
        }
    }

    @Test func aConnectionThatDeliveredEventsResetsTheFailureCount() {
        let log = FakeEventLog.importJob()
        var harness = WatchHarness()
        harness.start()
        harness.apply(harness.machine.connectionFailed(.transport("refused")))
        harness.apply(harness.machine.connectionFailed(.http(status: 503)))
        #expect(harness.machine.consecutiveFailures == 2)
        harness.open()
        harness.receive(FakeEventLog.render(log.entries[0]))
        #expect(harness.cut() == .openStream(lastEventID: log.entries[0].id, after: .seconds(3)))
        #expect(harness.machine.consecutiveFailures == 0)
        harness.apply(harness.machine.connectionFailed(.timedOut))
        #expect(
            harness.apply(harness.machine.connectionFailed(.transport("refused")))
                == .openStream(lastEventID: log.entries[0].id, after: .seconds(3))
        )
        #expect(harness.apply(harness.machine.connectionFailed(.transport("refused"))) == .poll(after: .zero))
    }

    @Test func retryAfterOnAFailedConnectionIsHonoured() {
        var harness = WatchHarness()
        harness.start()
        #expect(
            harness.apply(
                harness.machine.connectionFailed(
                    .http(status: 429, code: "RATE_LIMIT_EXCEEDED", retryAfter: .seconds(20))
                )
            )
                == .openStream(lastEventID: nil, after: .seconds(20))
        )
    }

    @Test func timeoutEventSwitchesToPolling() {
        var harness = WatchHarness()
        harness.start()
        harness.open()
        harness.receive(streamPreamble)
        harness.receive(#"id: 1-1\#nevent: processing\#ndata: {"status":"processing","progress":0.25}\#n\#n"#)
        let action = harness.receive(
            #"event: timeout\#ndata: {"error":"stream_timeout","message":"no progress for 5 minutes","jobId":"job-1","lastStatus":"processing","lastProgress":0.4}\#n\#n"#
        )
        #expect(action == .poll(after: .zero))
        #expect(harness.machine.state == .polling)
        #expect(harness.progress.map(\.fraction) == [0.25, 0.4])
        // Production's timeout without lastStatus/lastProgress works the same.
        var bare = WatchHarness()
        bare.start()
        bare.open()
        #expect(bare.receive("event: timeout\ndata: {\"error\":\"stream_timeout\"}\n\n") == .poll(after: .zero))
        #expect(bare.progress.isEmpty)
    }

    @Test func timeoutWithoutPollingReconnects() {
        var harness = WatchHarness(configuration: JobWatchConfiguration(offersPolling: false))
        harness.start()
        harness.open()
        harness.receive("id: 1-4\nevent: processing\ndata: {\"progress\":0.5}\n\n")
        #expect(harness.receive("event: timeout\ndata: {}\n\n") == .openStream(lastEventID: "1-4", after: .seconds(3)))
    }

    @Test func duplicateReplayedEventIsSuppressed() {
        var harness = WatchHarness()
        harness.start()
        harness.open()
        harness.receive(
            "id: a\nevent: processing\ndata: {\"progress\":0.1}\n\nid: b\nevent: processing\ndata: {\"progress\":0.2}\n\n"
        )
        #expect(harness.cut() == .openStream(lastEventID: "b", after: .seconds(3)))
        harness.open()
        // A server that replays the last event again (and even an older one).
        harness.receive(
            "id: b\nevent: processing\ndata: {\"progress\":0.2}\n\nid: a\nevent: processing\ndata: {\"progress\":0.1}\n\n"
        )
        harness.receive("id: c\nevent: processing\ndata: {\"progress\":0.3}\n\n")
        #expect(harness.progress.map(\.eventID) == ["a", "b", "c"])
        #expect(harness.machine.lastEventID == "c")
    }

    @Test func connectionsThatOnlyReplaySeenEventsAreFailures() {
        // A server that keeps replaying the same event and closing makes no progress: fall back.
        var harness = WatchHarness()
        harness.start()
        harness.open()
        harness.receive("id: a\nevent: processing\ndata: {\"progress\":0.1}\n\n")
        #expect(harness.serverClosed() == .openStream(lastEventID: "a", after: .seconds(3)))
        for attempt in 1...3 {
            harness.open()
            harness.receive("id: a\nevent: processing\ndata: {\"progress\":0.1}\n\n")
            #expect(harness.machine.state == .streaming(deliveredNewEvents: false))
            let action = harness.serverClosed()
            #expect(action == (attempt < 3 ? .openStream(lastEventID: "a", after: .seconds(3)) : .poll(after: .zero)))
        }
        #expect(harness.progress.count == 1)
    }

    @Test func eventsInheritingTheIDAreNotDuplicates() {
        var harness = WatchHarness()
        harness.start()
        harness.open()
        harness.receive(
            "id: 7\nevent: processing\ndata: {\"progress\":0.1}\n\nevent: processing\ndata: {\"progress\":0.2}\n\n"
        )
        #expect(harness.progress.map(\.fraction) == [0.1, 0.2])
        #expect(harness.progress.map(\.eventID) == ["7", "7"])
    }

    @Test func productionSnapshotReconnectWithoutReplay() {
        // Production: `progress` events, percent on completion, and a reconnect that sends a fresh
        // snapshot (new ids, no replay) instead of the missed events.
        var harness = WatchHarness()
        harness.start()
        harness.open()
        harness.receive(
            "id: p1\nevent: progress\ndata: {\"status\":\"processing\",\"progress\":0.3,\"processedCount\":30,\"totalCount\":100}\n\n"
        )
        harness.receive(
            "id: p2\nevent: progress\ndata: {\"status\":\"processing\",\"progress\":0.5,\"processedCount\":50,\"totalCount\":100}\n\n"
        )
        #expect(harness.cut() == .openStream(lastEventID: "p2", after: .seconds(3)))
        harness.open()
        // Snapshot equal to what we saw: nothing to report.
        harness.receive(
            "id: s1\nevent: progress\ndata: {\"status\":\"processing\",\"progress\":0.5,\"processedCount\":50,\"totalCount\":100}\n\n"
        )
        #expect(harness.progress.count == 2)
        // A stale snapshot (older progress) never moves the bar backwards.
        harness.receive(
            "event: progress\ndata: {\"status\":\"processing\",\"progress\":0.45,\"processedCount\":45}\n\n"
        )
        #expect(harness.progress.count == 2)
        harness.receive(
            "id: s2\nevent: progress\ndata: {\"status\":\"processing\",\"progress\":0.8,\"processedCount\":80,\"totalCount\":100}\n\n"
        )
        let action = harness.receive(
            "id: s3\nevent: completed\ndata: {\"status\":\"completed\",\"progress\":100,\"processedCount\":100,\"totalCount\":100}\n\n"
        )
        #expect(action == .fetchResults)
        #expect(harness.progress.map(\.fraction) == [0.3, 0.5, 0.8, 1.0])
        #expect(harness.progress.map(\.processedCount) == [30, 50, 80, 100])
    }

    @Test func failedCanceledAndNotFoundFinish() {
        var failed = WatchHarness()
        failed.start()
        failed.open()
        let action = failed.receive(
            #"id: 9\#nevent: failed\#ndata: {"status":"failed","progress":0.2,"error":{"code":"E_CSV_PROCESSING_FAILED","message":"unbalanced quotes on line 3","retryable":false}}\#n\#n"#
        )
        #expect(
            action
                == .finish(
                    .failed(code: "E_CSV_PROCESSING_FAILED", message: "unbalanced quotes on line 3", retryable: false)
                )
        )
        #expect(failed.progress.last?.status == .failed)
        #expect(failed.serverClosed() == .none)

        var canceled = WatchHarness()
        canceled.start()
        canceled.open()
        #expect(canceled.receive("event: canceled\ndata: {\"status\":\"canceled\"}\n\n") == .finish(.canceled))

        var missing = WatchHarness()
        missing.start()
        missing.open()
        #expect(
            missing.receive("event: error\ndata: {\"error\":\"job_not_found\",\"message\":\"Job abc not found\"}\n\n")
                == .finish(.notFound(message: "Job abc not found"))
        )
    }

    @Test func streamErrorReconnects() {
        var harness = WatchHarness()
        harness.start()
        harness.open()
        #expect(
            harness.receive("event: error\ndata: {\"error\":\"stream_error\",\"message\":\"boom\"}\n\n")
                == .openStream(lastEventID: nil, after: .seconds(3))
        )
        #expect(harness.machine.consecutiveFailures == 1)
    }

    @Test func unusableStreamRouteFallsBack() {
        var notFound = WatchHarness()
        notFound.start()
        #expect(
            notFound.apply(notFound.machine.connectionFailed(.http(status: 404, code: "NOT_FOUND")))
                == .poll(after: .zero)
        )
        var badAccept = WatchHarness()
        badAccept.start()
        #expect(
            badAccept.apply(badAccept.machine.connectionFailed(.http(status: 400, code: "INVALID_ACCEPT_HEADER")))
                == .poll(after: .zero)
        )
        // A batch job on a server with a WebSocket but no status route: go to the socket.
        var batch = WatchHarness(configuration: JobWatchConfiguration(offersWebSocket: true, offersPolling: false))
        batch.start()
        #expect(batch.apply(batch.machine.connectionFailed(.http(status: 404))) == .openWebSocket(after: .zero))
        // Nothing else offered: a 404 means not found.
        var only = WatchHarness(configuration: JobWatchConfiguration(offersPolling: false))
        only.start()
        #expect(
            only.apply(only.machine.connectionFailed(.http(status: 404, code: "NOT_FOUND")))
                == .finish(.notFound(message: "NOT_FOUND"))
        )
    }

    @Test func sseOnlyServerGivesUpAfterThreeFailures() {
        var harness = WatchHarness(configuration: JobWatchConfiguration(offersPolling: false))
        harness.start()
        harness.apply(harness.machine.connectionFailed(.timedOut))
        harness.apply(harness.machine.connectionFailed(.timedOut))
        guard case .finish(.unreachable(let reason)) = harness.apply(harness.machine.connectionFailed(.timedOut)) else {
            Issue.record("expected unreachable")
            return
        }
        #expect(reason.contains("3 times"))
    }

    @Test func idOnlyBlockBeforeACutIsUsedForLastEventID() {
        var harness = WatchHarness()
        harness.start()
        harness.open()
        harness.receive("id: 1\nevent: processing\ndata: {\"progress\":0.1}\n\nid: 2\n\n")
        #expect(harness.cut() == .openStream(lastEventID: "2", after: .seconds(3)))
    }

    @Test func unknownEventTypesAndMessagesWithStatusInData() {
        var harness = WatchHarness()
        harness.start()
        harness.open()
        #expect(harness.receive("event: something_new\ndata: {}\n\n") == .none)
        #expect(harness.progress.isEmpty)
        // A plain `message` event whose data carries a status is understood.
        harness.receive("data: {\"status\":\"processing\",\"progress\":0.6}\n\n")
        #expect(harness.progress.map(\.fraction) == [0.6])
    }

    @Test func detachFinishesAndLaterInputsAreIgnored() {
        var harness = WatchHarness()
        harness.start()
        harness.open()
        #expect(harness.apply(harness.machine.userDetached()) == .finish(.detached))
        #expect(harness.receive("event: completed\ndata: {}\n\n") == .none)
        #expect(harness.apply(harness.machine.userDetached()) == .none)
        #expect(harness.machine.state == .finished(.detached))
    }
}
