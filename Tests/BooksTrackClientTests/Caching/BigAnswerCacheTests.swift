import BooksTrackContract
import Foundation
import TestSupport
import Testing

@testable import BooksTrackClient

/// An answer larger than the caches keep is asked again, not decoded again from a cached copy
/// (a 15 MB search was cached whole and cost as much at every cached hit).
@Suite("Big answers and the caches")
struct BigAnswerCacheTests {
    static func search(_ works: Int) -> String {
        let padding = String(repeating: "x", count: 200)
        let items = (0..<works).map { #"{"title":"Big \#($0) \#(padding)"}"# }.joined(separator: ",")
        return
            #"{"success":true,"data":{"works":[\#(items)],"editions":[],"authors":[]},"metadata":{"timestamp":"2026-11-28T00:00:00Z"}}"#
    }

    @Test(arguments: [(works: 20_000, asked: 2), (works: 10, asked: 1)])
    func anAnswerPastTheBoundIsNotCached(_ shape: (works: Int, asked: Int)) async throws {
        let dir = try TempDir("big-answers")
        defer { dir.cleanup() }
        let body = Self.search(shape.works)
        #expect((body.utf8.count > ResponseCaching.maxCachedBodyBytes) == (shape.asked == 2))
        try await HostileServer.with({ _ in
            .raw(
                Array(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: max-age=3600\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
                        .utf8
                )
            )
        }) { server in
            let api = makeAPI(server.baseURL) { config in
                config.retryPolicy = .never
                config.dialect = .v1
                config.responseCache = ResponseDiskCache(directory: dir.url, backend: "big")
            }
            for _ in 0..<2 { _ = try await api.searchTitle("big", limit: 5) }
            await api.shutdown()
            #expect(server.received.count == shape.asked)
        }
    }
}
