import BooksTrackCatalog
import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

@Suite struct SearchRouteTests {
    @Test func healthIsEnveloped() async throws {
        try await TestServer.with { server async throws in
            let response = try await server.get("/health")
            #expect(response.status == 200)
            let envelope = try response.decode(Envelope<[String: JSONValue]>.self)
            #expect(envelope.success)
            #expect(envelope.data?["status"] == .string("ok"))
            #expect(response.header("X-Response-Format") == "v2.0")
            #expect(response.header("X-Response-Time")?.hasSuffix("ms") == true)
            #expect(response.header("X-Fault-Injection") == nil)
        }
    }

    @Test func isbnLookupMapsTheCatalogBook() async throws {
        try await TestServer.with { server async throws in
            let response = try await server.get("/v1/search/isbn?isbn=978-0-439-02348-1")
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "public, max-age=604800")
            #expect(response.header("X-Cache") == "MISS")
            #expect(response.header("X-RateLimit-Limit") == "100")
            #expect(response.header("X-RateLimit-Remaining") == "99")
            let envelope = try response.decode(Envelope<BookSearchResponse>.self)
            let data = try #require(envelope.data)
            #expect(envelope.success && envelope.error == nil)
            #expect(envelope.metadata.provider == "local-catalog")
            #expect(data.resultCount == 1 && data.works.count == 1 && data.editions.count == 1)
            let work = data.works[0]
            #expect(work.title == "The Hunger Games (The Hunger Games, #1)")
            #expect(work.goodreadsWorkIDs == ["2001"] && work.goodreadsID == "1001")
            #expect(work.subjectTags.isEmpty && work.amazonASINs.isEmpty && work.librarythingIDs.isEmpty)
            #expect(work.reviewStatus == .verified && work.isbndbQuality == 0)
            #expect(work.firstPublicationYear == 2008 && work.originalLanguage == "en")
            #expect(work.coverImageURL == "https://images.example/1.jpg")
            #expect(work.contributors == ["Suzanne Collins"])
            let edition = data.editions[0]
            #expect(edition.isbns == ["9780439023481", "0439023483"])
            #expect(edition.format == .other && edition.publicationDate == "2008" && edition.language == "en")
            #expect(data.authors == [AuthorDTO(name: "Suzanne Collins", gender: .unknown)])
        }
    }

    @Test func isbnLookupIsCachedAndISBN10Works() async throws {
        try await TestServer.with { server async throws in
            _ = try await server.get("/v1/search/isbn?isbn=9780439023481")
            let second = try await server.get("/v1/search/isbn?isbn=0439023483")
            #expect(second.header("X-Cache") == "HIT")
            let envelope = try second.decode(Envelope<BookSearchResponse>.self)
            #expect(envelope.metadata.cached == true)
            #expect(envelope.data?.works.first?.title.hasPrefix("The Hunger Games") == true)
        }
    }

    @Test func unknownISBNIsAnEmpty200() async throws {
        try await TestServer.with { server async throws in
            let response = try await server.get("/v1/search/isbn?isbn=9780451524935")
            #expect(response.status == 200)
            let data = try #require(try response.decode(Envelope<BookSearchResponse>.self).data)
            #expect(data.works.isEmpty && data.editions.isEmpty && data.authors.isEmpty && data.resultCount == 0)
        }
    }

    @Test(arguments: ["9780439023482", "043902348X", "12345", "97804390234811", "abc", "978-0-439-02348-"])
    func invalidISBNsAre400(_ isbn: String) async throws {
        try await TestServer.with { server async throws in
            let response = try await server.get("/v1/search/isbn?isbn=\(isbn)")
            #expect(response.status == 400)
            #expect(response.header("X-Error-Type") == "INVALID_ISBN")
            let failure = try response.failure
            #expect(!failure.success && failure.data == nil)
            #expect(failure.error?.code == .invalidISBN && failure.error?.retryable == false)
            #expect(failure.error?.message.contains("ISBN") == true)
        }
    }

    @Test func missingISBNIsMissingParameter() async throws {
        try await TestServer.with { server async throws in
            let response = try await server.get("/v1/search/isbn")
            #expect(response.status == 400 && response.errorCode == "MISSING_PARAMETER")
        }
    }

    @Test func titleSearch() async throws {
        try await TestServer.with { server async throws in
            let response = try await server.get("/v1/search/title?q=the&limit=2")
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "public, max-age=86400")
            let data = try #require(try response.decode(Envelope<BookSearchResponse>.self).data)
            #expect(data.works.count == 2 && data.editions.count == 2 && data.totalResults == 3)
            #expect(zip(data.works, data.editions).allSatisfy { $0.title == $1.title })
        }
    }

    @Test func titleSearchValidation() async throws {
        try await TestServer.with { server async throws in
            #expect(try await server.get("/v1/search/title").errorCode == "MISSING_PARAMETER")
            #expect(try await server.get("/v1/search/title?q=%20%20").errorCode == "MISSING_PARAMETER")
            for limit in ["0", "101", "-1", "ten", "99999999999999999999999"] {
                let response = try await server.get("/v1/search/title?q=gatsby&limit=\(limit)")
                #expect(response.status == 400 && response.errorCode == "INVALID_REQUEST", "limit \(limit)")
            }
            let long = String(repeating: "a", count: 5000)
            let response = try await server.get("/v1/search/title?q=\(long)")
            #expect(response.status == 200)
            #expect(try response.decode(Envelope<BookSearchResponse>.self).data?.works.isEmpty == true)
        }
    }

    @Test func authorSearchAcceptsNameOrQ() async throws {
        try await TestServer.with { server async throws in
            let byName = try await server.get("/v1/search/author?name=rowling")
            let byQ = try await server.get("/v1/search/author?q=Rowling")
            for response in [byName, byQ] {
                let data = try #require(try response.decode(Envelope<BookSearchResponse>.self).data)
                #expect(data.works.count == 1)
                #expect(data.authors.map(\.name) == ["J.K. Rowling"])
                #expect(data.works.first?.contributors == ["J.K. Rowling", "Mary GrandPré"])
                #expect(SearchResults(data).items.first?.authors == ["J.K. Rowling", "Mary GrandPré"])
            }
            #expect(try await server.get("/v1/search/author").errorCode == "MISSING_PARAMETER")
        }
    }

    @Test func advancedSearch() async throws {
        try await TestServer.with { server async throws in
            let both = try await server.get("/v1/search/advanced?title=gatsby&author=fitzgerald")
            #expect(try both.decode(Envelope<BookSearchResponse>.self).data?.works.count == 1)
            let mismatch = try await server.get("/v1/search/advanced?title=gatsby&author=rowling")
            #expect(try mismatch.decode(Envelope<BookSearchResponse>.self).data?.works.isEmpty == true)
            let neither = try await server.get("/v1/search/advanced")
            #expect(neither.status == 400 && neither.errorCode == "MISSING_PARAMETER")
        }
    }

    @Test func legacyDeprecationHeadersWhenConfigured() async throws {
        var config = TestServer.testConfiguration()
        config.legacyDeprecation = .init(
            deprecation: "true",
            sunset: "Wed, 01 Jul 2026 00:00:00 GMT",
            link: "</api/v2/search>"
        )
        try await TestServer.with(config) { server async throws in
            let legacy = try await server.get("/v1/search/title?q=gatsby")
            #expect(legacy.header("Deprecation") == "true")
            #expect(legacy.header("Sunset") == "Wed, 01 Jul 2026 00:00:00 GMT")
            #expect(legacy.header("Link") == "</api/v2/search>")
            #expect(try await server.get("/api/v2/search?q=gatsby").header("Deprecation") == nil)
        }
        try await TestServer.with { server async throws in
            #expect(try await server.get("/v1/search/title?q=gatsby").header("Deprecation") == nil)
        }
    }
}
