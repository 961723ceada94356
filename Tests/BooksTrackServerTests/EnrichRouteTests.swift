import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

@Suite struct EnrichRouteTests {
    @Test func enrichesFromTheCatalog() async throws {
        try await TestServer.with { server async throws in
            let response = try await server.postJSON(
                "/api/v2/books/enrich",
                #"{"barcode":"0439023483","prefer_provider":"google_books"}"#
            )
            #expect(response.status == 200)
            #expect(response.header("X-RateLimit-Class") == "enrich" && response.header("X-RateLimit-Limit") == "5")
            let envelope = try response.decode(Envelope<EnrichedBook>.self)
            let book = try #require(envelope.data)
            #expect(book.isbn == "9780439023481" && book.provider == "local-catalog")
            #expect(book.authors == ["Suzanne Collins"] && book.publishedDate == "2008" && book.vectorized)
            #expect(ISO8601.date(from: book.enrichedAt) != nil)
            let viaISBN = try await server.postJSON("/api/v2/books/enrich", #"{"isbn":"9780743273565"}"#)
            #expect(try viaISBN.decode(Envelope<EnrichedBook>.self).data?.title == "The Great Gatsby")
        }
    }

    @Test func idempotencyKeyReplaysTheFirstResult() async throws {
        let clock = ManualClock()
        try await TestServer.with(clock: clock) { server async throws in
            let body = #"{"barcode":"9780439023481","idempotency_key":"key-1"}"#
            let first = try await server.postJSON("/api/v2/books/enrich", body)
            #expect(first.header("X-Idempotent-Replay") == "false")
            let firstBook = try #require(try first.decode(Envelope<EnrichedBook>.self).data)
            clock.advance(by: 3600)
            let second = try await server.postJSON("/api/v2/books/enrich", body)
            #expect(second.status == 200 && second.header("X-Idempotent-Replay") == "true")
            let replay = try second.decode(Envelope<EnrichedBook>.self)
            #expect(replay.data == firstBook)
            #expect(replay.metadata.cached == true)
            // The same key for another book is refused.
            let other = try await server.postJSON(
                "/api/v2/books/enrich",
                #"{"barcode":"9780743273565","idempotency_key":"key-1"}"#
            )
            #expect(other.status == 400 && other.errorCode == "INVALID_REQUEST")
            // After 24 h the key is forgotten: new work, new timestamp.
            clock.advance(by: 24 * 3600)
            let later = try await server.postJSON("/api/v2/books/enrich", body)
            #expect(later.header("X-Idempotent-Replay") == "false")
            #expect(try later.decode(Envelope<EnrichedBook>.self).data?.enrichedAt != firstBook.enrichedAt)
        }
    }

    @Test func badBodies() async throws {
        var config = TestServer.testConfiguration()
        config.rateLimitsEnabled = false
        try await TestServer.with(config) { server async throws in
            let cases: [(String, String, Int, String)] = [
                ("", "application/json", 400, "INVALID_REQUEST"),
                ("not json", "application/json", 400, "INVALID_REQUEST"),
                ("[1,2]", "application/json", 400, "INVALID_REQUEST"),
                (#"{"title":"Dune"}"#, "application/json", 400, "INVALID_REQUEST"),
                (#"{"barcode":42}"#, "application/json", 400, "INVALID_ISBN"),
                (#"{"barcode":"9780439023482"}"#, "application/json", 400, "INVALID_ISBN"),
                (
                    #"{"barcode":"9780439023481","prefer_provider":"amazon"}"#, "application/json", 400,
                    "INVALID_REQUEST"
                ),
                (#"{"barcode":"9780439023481"}"#, "text/plain", 400, "INVALID_REQUEST"),
                (#"{"barcode":"9780451524935"}"#, "application/json", 404, "NOT_FOUND"),
            ]
            for (body, type, status, code) in cases {
                let response = try await server.request(
                    "POST",
                    "/api/v2/books/enrich",
                    headers: [("Content-Type", type)],
                    body: Data(body.utf8)
                )
                #expect(response.status == status, "\(body)")
                #expect(response.errorCode == code, "\(body)")
                #expect(response.header("X-Error-Type") == code)
            }
            let huge = Data(("{\"barcode\":\"" + String(repeating: "9", count: 200_000) + "\"}").utf8)
            let tooLarge = try await server.request(
                "POST",
                "/api/v2/books/enrich",
                headers: [("Content-Type", "application/json")],
                body: huge
            )
            #expect(tooLarge.status == 413)
            #expect(try tooLarge.failure.error?.code == .invalidRequest)
            // The server is still fine afterwards.
            #expect(try await server.get("/health").status == 200)
        }
    }
}
