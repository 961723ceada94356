import BooksTrackClient
import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing

struct CutConnection: Error {}

func sseEvent(_ id: Int, total: Int) -> String {
    let status = id == total ? "completed" : (id == 1 ? "initialized" : "processing")
    let progress = Double(id) / Double(total)
    return
        "id: \(id)\nevent: \(status)\ndata: {\"jobId\":\"job1\",\"status\":\"\(status)\",\"progress\":\(progress),\"processedCount\":\(id),\"totalCount\":\(total)}\n\n"
}

let importResultsBody =
    #"{"success":true,"data":{"booksCreated":1,"booksUpdated":0,"duplicatesSkipped":0,"enrichmentSucceeded":1,"enrichmentFailed":0,"errors":[],"books":[]},"metadata":{"timestamp":"x"}}"#

func collect(_ stream: AsyncThrowingStream<WatchEvent, any Error>) async throws -> [WatchEvent] {
    var events: [WatchEvent] = []
    for try await e in stream { events.append(e) }
    return events
}

@Suite struct WatchTests {
    /// The server cuts the stream three times; reconnects carry Last-Event-ID; every event is seen once.
    @Test func sseCutThreeTimesSeesEveryEventOnce() async throws {
        let total = 8
        let connections = HitCounter()
        let lastIDs = SynchronizedBox<[String]>([])
        try await TinyServer.with({ router in
            router.get("/api/v2/imports/{id}/stream") { request, _ in
                connections.hit("sse")
                let n = connections.count("sse")
                let last = request.headers[HTTPField.Name("Last-Event-ID")!].flatMap(Int.init) ?? 0
                lastIDs.mutate { $0.append(request.headers[HTTPField.Name("Last-Event-ID")!] ?? "") }
                let cut = n <= 3
                return Response(
                    status: .ok,
                    headers: [.contentType: "text/event-stream"],
                    body: ResponseBody { writer in
                        try await writer.write(ByteBuffer(string: ": connection established\nretry: 10\n\n"))
                        var sent = 0
                        // Replays nothing twice: resumes after Last-Event-ID (and repeats the last one to test dedup).
                        for id in max(1, last)...total {
                            try await writer.write(ByteBuffer(string: sseEvent(id, total: total)))
                            if id > last { sent += 1 }
                            if cut, sent == 2 {
                                // Let the bytes reach the client before the abrupt close.
                                try await Task.sleep(for: .milliseconds(30))
                                throw CutConnection()
                            }
                        }
                        try await writer.finish(nil)
                    }
                )
            }
            router.get("/api/v2/imports/{id}/results") { _, _ in Reply.json(importResultsBody) }
        }) { server in
            let recorder = SleepRecorder()
            let api = makeAPI(server.baseURL) {
                $0.sleep = recorder.sleep
                $0.streamIdleTimeout = .seconds(5)
            }
            let events = try await collect(api.watch(jobID: "job1"))
            let processed = events.compactMap { e -> Int? in
                if case .progress(let u) = e { return u.processedCount }
                return nil
            }
            #expect(processed == Array(1...total))
            #expect(connections.count("sse") == 4)
            // The first connection has no Last-Event-ID; every reconnect resumes after an event already seen.
            #expect(lastIDs.value.first == "")
            #expect(
                lastIDs.value.dropFirst().compactMap { Int($0) }
                    == lastIDs.value.dropFirst().compactMap { Int($0) }.sorted()
            )
            #expect(recorder.delays.allSatisfy { $0 == .milliseconds(10) })
            #expect(
                events.contains {
                    if case .results(.csvImport) = $0 { return true }
                    return false
                }
            )
            if case .finished(.completed) = events.last {
            } else {
                Issue.record("expected completion, got \(String(describing: events.last))")
            }
            await api.shutdown()
        }
    }

    /// The stream route refuses (503) three times: the watcher polls the status route.
    @Test func sseRefusedFallsBackToPolling() async throws {
        let hits = HitCounter()
        try await TinyServer.with({ router in
            router.get("/api/v2/imports/{id}/stream") { _, _ in
                hits.hit("sse")
                return Reply.text("", status: .serviceUnavailable, contentType: "text/plain")
            }
            router.get("/api/v2/imports/{id}") { _, _ in
                hits.hit("status")
                let done = hits.count("status") >= 2
                return Reply.json(
                    #"{"success":true,"data":{"jobId":"job1","status":"\#(done ? "completed" : "processing")","progress":\#(done ? 1 : 0.5),"processedCount":1,"totalCount":2,"pipeline":"csv_import","startTime":1}}"#
                )
            }
            router.get("/api/v2/imports/{id}/results") { _, _ in Reply.json(importResultsBody) }
        }) { server in
            let recorder = SleepRecorder()
            let api = makeAPI(server.baseURL) {
                $0.sleep = recorder.sleep
                $0.streamIdleTimeout = .seconds(5)
            }
            let events = try await collect(api.watch(jobID: "job1"))
            #expect(hits.count("sse") == 3)
            #expect(hits.count("status") == 2)
            let channels = events.compactMap { e -> JobWatchChannel? in
                if case .channel(let c) = e { return c }
                return nil
            }
            #expect(channels == [.sse, .polling])
            #expect(recorder.delays.contains(.seconds(2)))
            if case .finished(.completed) = events.last {} else { Issue.record("expected completion") }
            await api.shutdown()
        }
    }

    /// Cancelling the consumer detaches promptly; the API shuts down cleanly.
    @Test func cancellingTheWatchDetaches() async throws {
        let ended = SynchronizedBox(false)
        try await TinyServer.with({ router in
            router.get("/api/v2/imports/{id}/stream") { _, _ in
                Response(
                    status: .ok,
                    headers: [.contentType: "text/event-stream"],
                    body: ResponseBody { writer in
                        try await writer.write(ByteBuffer(string: sseEvent(1, total: 10)))
                        // Heartbeats until the client goes away (a write then fails), at most ~10 s.
                        do {
                            for _ in 0..<100 {
                                try await Task.sleep(for: .milliseconds(100))
                                try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                            }
                        } catch {
                            ended.mutate { $0 = true }
                            throw error
                        }
                        try await writer.finish(nil)
                    }
                )
            }
        }) { server in
            let api = makeAPI(server.baseURL)
            let firstSeen = SynchronizedBox(false)
            let task = Task { () -> Int in
                var n = 0
                for try await e in api.watch(jobID: "job1") {
                    if case .progress = e {
                        n += 1
                        firstSeen.mutate { $0 = true }
                    }
                }
                return n
            }
            // Detach only once the first event is in (bounded wait, no timing assumption).
            _ = try await eventually { firstSeen.value }
            task.cancel()
            let seen = try await task.value
            #expect(seen == 1)
            await api.shutdown()
            // The server notices the closed connection at its next heartbeat.
            _ = try await eventually { ended.value }
            #expect(ended.value)
        }
    }
}
