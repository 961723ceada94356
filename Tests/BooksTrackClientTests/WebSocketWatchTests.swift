import BooksTrackClient
import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Testing

/// A batch job on a server that offers progress only over the WebSocket (production): the SSE
/// route answers 404, the watcher switches to `/ws/progress` with the token as subprotocol and in the
/// `token` query parameter (the only place production's WebSocketConnectionDO reads it); traces mask both.
@Suite struct WebSocketWatchTests {
    @Test func batchProgressOverWebSocketThenResults() async throws {
        let offered = SynchronizedBox<[String]>([])
        let queries = SynchronizedBox<[String]>([])
        let messages: [String] = [
            #"{"type":"ready_ack","timestamp":1}"#,
            #"{"type":"job_started","jobId":"b1","pipeline":"batch_enrichment","timestamp":2,"payload":{"totalCount":3}}"#,
            #"{"type":"ping","jobId":"b1","timestamp":3,"payload":{}}"#,
            #"{"type":"job_progress","jobId":"b1","pipeline":"batch_enrichment","timestamp":4,"payload":{"progress":0.6667,"status":"Enriched 2/3 books","processedCount":2}}"#,
            #"{"type":"job_complete","jobId":"b1","pipeline":"batch_enrichment","timestamp":5,"payload":{"pipeline":"batch_enrichment","summary":{"totalProcessed":3,"successCount":2,"failureCount":1,"duration":10},"expiresAt":"x"}}"#,
        ]
        let pongs = SynchronizedBox(0)
        let wsRouter = Router(context: BasicWebSocketRequestContext.self)
        wsRouter.ws(
            "/ws/progress",
            shouldUpgrade: { request, _ in
                let values = request.headers[values: .secWebSocketProtocol]
                offered.mutate { $0 = values }
                queries.mutate { $0.append(request.uri.query ?? "") }
                var headers = HTTPFields()
                if let first = values.first { headers[.secWebSocketProtocol] = first }
                return .upgrade(headers)
            },
            onUpgrade: { inbound, outbound, _ in
                var iterator = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                guard case .text(let ready)? = try await iterator.next(), ready.contains("ready") else { return }
                for m in messages {
                    try await outbound.write(.text(m))
                    if m.contains(#""type":"ping""#) {
                        if case .text(let reply)? = try await iterator.next(), reply.contains("pong") {
                            pongs.mutate { $0 += 1 }
                        }
                    }
                }
            }
        )
        try await TinyServer.with(
            { router in
                router.get("/api/v2/imports/{id}/stream") { _, _ in
                    Reply.text("no route", status: .notFound, contentType: "text/plain")
                }
                router.get("/v1/jobs/{id}/results") { _, _ in Reply.fixture("batch-results-production.json") }
            },
            server: .http1WebSocketUpgrade(webSocketRouter: wsRouter)
        ) { server in
            let recorder = SleepRecorder()
            let traces = SynchronizedBox<[TraceEvent]>([])
            let api = makeAPI(server.baseURL) {
                $0.sleep = recorder.sleep
                $0.trace = { e in traces.mutate { $0.append(e) } }
            }
            var events: [WatchEvent] = []
            for try await e in api.watch(jobID: "b1", pipeline: .batchEnrichment, token: "SECRET-TOKEN") {
                events.append(e)
            }
            #expect(offered.value == ["bookstrack-auth.SECRET-TOKEN"])
            #expect(!queries.value.isEmpty && queries.value.allSatisfy { $0.contains("token=SECRET-TOKEN") })
            #expect(pongs.value == 1)
            let channels = events.compactMap { e -> JobWatchChannel? in
                if case .channel(let c) = e { return c }
                return nil
            }
            #expect(channels == [.sse, .webSocket])
            #expect(
                events.contains {
                    if case .results(.batch) = $0 { return true }
                    return false
                }
            )
            if case .finished(.completed) = events.last {
            } else {
                Issue.record("expected completion, got \(String(describing: events.last))")
            }
            #expect(!traces.value.map { "\($0)" }.joined().contains("SECRET-TOKEN"))
            await api.shutdown()
        }
    }
}
