import BooksTrackCatalog
import BooksTrackContract
import Foundation
import NIOCore
import NIOFoundationCompat
import Testing

@testable import BooksTrackServer

/// `correctedQuery` on the search routes of every API generation, over the real catalog: a query
/// that matches nothing is answered with its spelling corrected and says so; a query with matches
/// of its own is answered as it is, without the field.
@Suite struct CorrectedQueryRouteTests {
    static func json(_ response: TestResponse) throws -> JSONValue { try response.decode(JSONValue.self) }

    /// The hand-written v1 and v2 writers say `correctedQuery` as the contract's encoder does, and
    /// leave it out as it does when absent; awkward text included.
    @Test(arguments: [nil, "tolkien", "quote \" back\\slash \n\u{01} é 書"])
    func theWritersAgreeWithTheEncoder(_ corrected: String?) throws {
        func tree(_ data: Data) throws -> JSONValue { try JSONCoding.decoder().decode(JSONValue.self, from: data) }
        let v1 = BookSearchResponse(
            works: [],
            editions: [],
            authors: [],
            resultCount: 0,
            totalResults: 0,
            correctedQuery: corrected
        )
        let written = v1.encodedJSON()
        #expect(try tree(Data(buffer: written.bytes)) == tree(try JSONCoding.encoder().encode(v1)))
        #expect(try JSONCoding.decoder().decode(BookSearchResponse.self, from: Data(buffer: written.bytes)) == v1)
        let v2 = V2SearchResponse(
            query: .init(q: "tolkein", mode: .text, limit: 5),
            results: [SearchHit(title: "The Hobbit", authors: [], score: 1)],
            correctedQuery: corrected
        )
        let v2Written = try #require(v2.encodedJSON())
        #expect(try tree(Data(buffer: v2Written.bytes)) == tree(try JSONCoding.encoder().encode(v2)))
        #expect(try JSONCoding.decoder().decode(V2SearchResponse.self, from: Data(buffer: v2Written.bytes)) == v2)
        #expect(String(buffer: written.bytes).contains("correctedQuery") == (corrected != nil))
    }

    @Test func v1TitleAndAuthorRoutesSayWhatTheySearched() async throws {
        let catalog = try SharedCatalog.get()
        var config = TestServer.testConfiguration()
        config.rateLimitsEnabled = false
        try await TestServer.with(config, catalog: catalog) { server async throws in
            let title = try await server.get("/v1/search/title?q=hunger%20gmes&limit=5")
            let titles = try #require(try title.decode(Envelope<BookSearchResponse>.self).data)
            #expect(titles.correctedQuery == "hunger games")
            #expect(titles.works.contains { $0.title.hasPrefix("The Hunger Games") })
            #expect(SearchResults(titles).correctedQuery == "hunger games")
            // The cached answer says it too.
            let again = try await server.get("/v1/search/title?q=hunger%20gmes&limit=5")
            #expect(again.header("X-Cache") == "HIT")
            #expect(try again.decode(Envelope<BookSearchResponse>.self).data?.correctedQuery == "hunger games")

            let author = try await server.get("/v1/search/author?name=tolkein&limit=5")
            let byAuthor = try #require(try author.decode(Envelope<BookSearchResponse>.self).data)
            #expect(byAuthor.correctedQuery == "tolkien")
            #expect(byAuthor.authors.allSatisfy { $0.name == "J.R.R. Tolkien" }, "\(byAuthor.authors)")

            // Exact matches: no field at all.
            let exact = try await server.get("/v1/search/title?q=dune&limit=5")
            #expect(try Self.json(exact)["data"]?["correctedQuery"] == nil)
            let exactAuthor = try await server.get("/v1/search/author?name=tolkien&limit=5")
            #expect(try Self.json(exactAuthor)["data"]?["correctedQuery"] == nil)
            // Nothing to correct to: an empty answer without a guess.
            let nothing = try await server.get("/v1/search/title?q=zzzqqqxxy")
            let empty = try #require(try Self.json(nothing)["data"])
            #expect(empty["correctedQuery"] == nil && empty["works"] == .array([]))
        }
    }

    @Test func v2TextSearchSaysWhatItSearched() async throws {
        let catalog = try SharedCatalog.get()
        try await TestServer.with(catalog: catalog) { server async throws in
            let response = try await server.get("/api/v2/search?q=tolkein&limit=5")
            #expect(response.status == 200)
            let body = try #require(try response.decode(Envelope<V2SearchResponse>.self).data)
            #expect(body.correctedQuery == "tolkien")
            #expect(body.query.q == "tolkein")
            #expect(body.results.contains { $0.authors.contains("J.R.R. Tolkien") })
            #expect(SearchResults(body).correctedQuery == "tolkien")
            let exact = try await server.get("/api/v2/search?q=the%20shining%20stephen%20king&limit=5")
            let exactBody = try #require(try exact.decode(Envelope<V2SearchResponse>.self).data)
            #expect(exactBody.correctedQuery == nil)
            #expect(exactBody.results.first?.title.hasPrefix("The Shining") == true)
        }
    }

    @Test(arguments: [ServerDialect.contract, .production])
    func v3SearchSaysWhatItSearched(dialect: ServerDialect) async throws {
        let catalog = try SharedCatalog.get()
        var config = TestServer.testConfiguration()
        config.dialect = dialect
        try await TestServer.with(config, catalog: catalog, modules: LocalServer.defaultModules) {
            server async throws in
            let corrected = try Self.json(try await server.get("/v3/books/search?q=hunger%20gmes&limit=5"))
            #expect(corrected["data"]?["correctedQuery"] == .string("hunger games"))
            #expect(corrected["data"]?["query"]?["q"] == .string("hunger gmes"))
            let titles = corrected["data"]?["results"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
            #expect(titles.contains { $0.hasPrefix("The Hunger Games") }, "\(titles)")
            let exact = try Self.json(try await server.get("/v3/books/search?q=dune&limit=5"))
            #expect(exact["data"]?["correctedQuery"] == nil)
        }
    }
}
