import BooksTrackClient
import BooksTrackContract
import Foundation
import TestSupport
import Testing

/// `--trace` shows a redirect hop by hop, each under the URL that answered, and another origin's
/// answer is not cached as the configured server's (it was shown, and cached, under the first URL).
@Suite("Redirects in traces and caches")
struct RedirectTraceTests {
    @Test func aRedirectIsTracedAndAnotherOriginsAnswerIsNotCached() async throws {
        let dir = try TempDir("redirect-cache")
        defer { dir.cleanup() }
        let body = Fixtures.text("search-isbn-envelope-no-success.json")
        let events = SynchronizedBox<[TraceEvent]>([])
        try await HostileServer.with({ _ in
            .raw(
                Array(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: max-age=3600\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
                        .utf8
                )
            )
        }) { other in
            try await HostileServer.with({ _ in
                HostileServer.redirect(to: "http://127.0.0.1:\(other.port)/elsewhere")
            }) { server in
                let api = makeAPI(server.baseURL) { config in
                    config.retryPolicy = .never
                    config.dialect = .v1
                    config.responseCache = ResponseDiskCache(directory: dir.url, backend: "redirect")
                    config.trace = { event in events.mutate { $0.append(event) } }
                }
                _ = try await api.searchISBN("9780441172719")
                _ = try await api.searchISBN("9780441172719")
                await api.shutdown()
                #expect(server.received.count == 2, "the redirected answer was cached")
                #expect(other.received.count == 2)
            }
            let answered = events.value.filter { !$0.cacheHit }
            #expect(answered.count == 4, "\(answered.map(\.summary))")
            let first = try #require(answered.first)
            #expect(first.status == 302)
            #expect(first.url.contains("/v1/search/isbn"), "\(first.url)")
            #expect(first.responseHeaders.contains { $0.name.lowercased() == "location" })
            let second = try #require(answered.dropFirst().first)
            #expect(second.status == 200)
            #expect(second.url == "http://127.0.0.1:\(other.port)/elsewhere", "\(second.url)")
        }
    }
}
