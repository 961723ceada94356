import BooksTrackContract
import BooksTrackServer
import Foundation
import NIOHTTP1
import Testing

@Suite("SSE progress stream", .timeLimit(.minutes(TestTime.minutes(10))))
struct SSERoutesTests {
    static let threeRows = "Title,Author\nThe Hobbit,Tolkien\n1984,Orwell\nDune,Herbert\n"

    /// The whole stream of a finished job, byte for byte (manual clock → fixed ids and timestamps).
    @Test func wholeStreamIsByteExact() async throws {
        let clock = ManualJobClock(Date(timeIntervalSince1970: 1_790_000_000))
        try await withJobServer(clock: clock) { server in
            let accepted = try await uploadCSV(server, Self.threeRows)
            let id = try #require(try accepted.data()["jobId"]?.stringValue)
            _ = try await waitForEnd(server.engine, id)
            let (status, headers, capture) = try await readSSE(server, id)
            #expect(status == 200)
            #expect(headers.first { $0.0.lowercased() == "content-type" }?.1 == "text/event-stream")
            #expect(headers.first { $0.0.lowercased() == "cache-control" }?.1 == "no-cache")
            #expect(capture.failure == nil)
            func data(_ status: String, _ processed: Int, _ progress: String, completedAt: Bool = false) -> String {
                let completed = completedAt ? "\"completedAt\":\"2026-09-21T14:13:20.000Z\"," : ""
                return
                    "{\(completed)\"jobId\":\"\(id)\",\"processedCount\":\(processed),\"progress\":\(progress),\"status\":\"\(status)\",\"totalCount\":\(status == "initialized" ? 0 : 3)}"
            }
            let expected =
                ": connection established\nretry: 5000\n\n"
                + "id: 1790000000000-1\nevent: initialized\ndata: \(data("initialized", 0, "0"))\n\n"
                + "id: 1790000000000-2\nevent: processing\ndata: \(data("processing", 0, "0"))\n\n"
                + "id: 1790000000000-3\nevent: processing\ndata: \(data("processing", 1, "0.3333333333333333"))\n\n"
                + "id: 1790000000000-4\nevent: processing\ndata: \(data("processing", 2, "0.6666666666666666"))\n\n"
                + "id: 1790000000000-5\nevent: completed\ndata: \(data("completed", 3, "1", completedAt: true))\n\n"
            #expect(capture.text == expected)

            // Resuming after event 3 replays 4 and 5 only.
            let resumed = try await readSSE(server, id, lastEventID: "1790000000000-3")
            #expect(
                resumed.capture.text
                    == ": reconnected from event 1790000000000-3\nretry: 5000\n\n"
                    + "id: 1790000000000-4\nevent: processing\ndata: \(data("processing", 2, "0.6666666666666666"))\n\n"
                    + "id: 1790000000000-5\nevent: completed\ndata: \(data("completed", 3, "1", completedAt: true))\n\n"
            )
        }
    }

    @Test func acceptHeaderIsRequired() async throws {
        try await withJobServer { server in
            let (status, _, capture) = try await readSSE(server, "whatever", accept: "application/json")
            #expect(status == 400)
            let body = try JSONDecoder().decode(JSONValue.self, from: Data(capture.text.utf8))
            #expect(body["error"]?["code"] == "INVALID_ACCEPT_HEADER")
        }
    }

    @Test func unknownJobGetsAnErrorEventThenClose() async throws {
        try await withJobServer { server in
            let (status, _, capture) = try await readSSE(server, "no-such-job")
            #expect(status == 200)
            #expect(capture.failure == nil)
            #expect(
                capture.text
                    == ": connection established\nretry: 5000\n\nevent: error\ndata: {\"error\":\"job_not_found\",\"jobId\":\"no-such-job\",\"message\":\"job no-such-job not found\"}\n\n"
            )
        }
    }

    /// A watcher cut off three times mid-job (server-side drop fault) resumes with Last-Event-ID and
    /// sees every event exactly once, in order.
    @Test func resumptionAcrossThreeDropsHasNoGapsOrDuplicates() async throws {
        let rows = (1...40).map { "Book \($0),Author" }.joined(separator: "\n")
        try await withJobServer(configure: {
            $0.itemsPerSecond = 200
            $0.faultInjectionEnabled = true
            $0.sseDropFault = SSEDropFault(afterEvents: 4, maxDrops: 3)
        }) { server in
            let accepted = try await uploadCSV(server, "Title,Author\n" + rows + "\n")
            let id = try #require(try accepted.data()["jobId"]?.stringValue)
            var seen: [SSEBlock] = []
            var lastID: String?
            var connections = 0
            var drops = 0
            while connections < 20 {
                connections += 1
                let (_, _, capture) = try await readSSE(server, id, lastEventID: lastID)
                let blocks = sseBlocks(capture.text)
                #expect(
                    blocks.first?.comments.first
                        == (lastID == nil ? "connection established" : "reconnected from event \(lastID ?? "")")
                )
                let events = blocks.filter { $0.id != nil }
                seen += events
                lastID = events.last?.id ?? lastID
                if capture.failure != nil { drops += 1 }
                if events.last?.event == "completed" { break }
            }
            #expect(drops == 3)
            #expect(connections == 4)
            let log = await server.engine.events(of: id)
            #expect(log.count == 42)
            #expect(seen.map(\.id) == log.map(\.id))
            #expect(seen.compactMap(\.id).compactMap(JobEvent.sequence(fromEventID:)) == Array(1...log.count))
            #expect(seen.last?.event == "completed")
        }
    }

    @Test func heartbeatsWhileIdleAndTheServerNoticesTheClientLeaving() async throws {
        try await withJobServer(configure: {
            $0.itemsPerSecond = 0.001  // the job never progresses during the test
            $0.heartbeatInterval = .milliseconds(20)
        }) { server in
            let accepted = try await uploadCSV(server, Self.threeRows)
            let id = try #require(try accepted.data()["jobId"]?.stringValue)
            let (_, _, capture) = try await readSSE(server, id) {
                $0.components(separatedBy: ": heartbeat\n\n").count > 3
            }
            let kinds = sseBlocks(capture.text).map { $0.event ?? ($0.comments.first ?? "") }
            #expect(
                kinds.prefix(5) == ["connection established", "initialized", "processing", "heartbeat", "heartbeat"]
            )
            // The client hung up: the next heartbeat write fails and the stream unsubscribes.
            for _ in 0..<2000 where await server.engine.watcherCount(of: id) > 0 {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(await server.engine.watcherCount(of: id) == 0)
        }
    }

    @Test func timeoutWithoutProgressThenClose() async throws {
        try await withJobServer(configure: {
            $0.itemsPerSecond = 0.001
            $0.heartbeatInterval = .seconds(60)
            $0.streamTimeout = .milliseconds(200)
        }) { server in
            let accepted = try await uploadCSV(server, Self.threeRows)
            let id = try #require(try accepted.data()["jobId"]?.stringValue)
            let (_, _, capture) = try await readSSE(server, id)
            #expect(capture.failure == nil)
            let blocks = sseBlocks(capture.text)
            #expect(
                blocks.map { $0.event ?? ($0.comments.first ?? "") } == [
                    "connection established", "initialized", "processing", "timeout",
                ]
            )
            let last = try #require(blocks.last)
            #expect(last.id == nil)
            let payload = try JSONCoding.decoder().decode(StreamTimeoutPayload.self, from: Data((last.data ?? "").utf8))
            #expect(payload.error == "stream_timeout" && payload.jobId == id)
            #expect(payload.lastStatus == .processing && payload.lastProgress == 0)
            #expect(payload.message == "no progress for 200 ms; reconnect or poll the status route")
        }
    }

    @Test func watchersOfACanceledJobGetTheCanceledEventAndTheStreamCloses() async throws {
        try await withJobServer(configure: { $0.itemsPerSecond = 20 }) { server in
            let accepted = try await uploadCSV(
                server,
                Self.threeRows + String(repeating: "The Hobbit,Tolkien\n", count: 50)
            )
            let data = try accepted.data()
            let id = try #require(data["jobId"]?.stringValue)
            let token = try #require(data["authToken"]?.stringValue)
            async let stream = readSSE(server, id)
            for _ in 0..<2000 where await server.engine.watcherCount(of: id) == 0 {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(await server.engine.watcherCount(of: id) == 1)
            let cancel = try await httpRequest(
                .DELETE,
                server.base + "/v1/jobs/\(id)",
                headers: [("Authorization", "Bearer \(token)")]
            )
            #expect(cancel.status == 200)
            let capture = try await stream.capture
            #expect(capture.failure == nil)
            let last = try #require(sseBlocks(capture.text).last)
            #expect(last.event == "canceled")
            #expect(await server.engine.watcherCount(of: id) == 0)
        }
    }
}
