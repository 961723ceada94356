import BooksTrackCatalog
import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

/// Issue 31 on the real server: a book's reader shelves on the wire, and `similar` by shelves.
@Suite struct ShelvesRouteTests {
    @Test func isbnLookupCarriesTheBooksShelves() async throws {
        try await TestServer.with(catalog: try SharedCatalog.get()) { server async throws in
            let response = try await server.get("/v1/search/isbn?isbn=9780439023481")
            let data = try #require(try response.decode(Envelope<BookSearchResponse>.self).data)
            let work = try #require(data.works.first)
            #expect(work.subjectTags.count == SQLiteCatalog.shownShelves)
            #expect(work.subjectTags.contains("dystopian"))
            #expect(!work.subjectTags.contains("to-read") && !work.subjectTags.contains("hunger-games"))
            let item = try #require(SearchResults(data).items.first)
            #expect(item.categories == work.subjectTags)
        }
    }

    @Test func similarRouteAnswersByShelves() async throws {
        var config = TestServer.testConfiguration()
        config.rateLimitsEnabled = false
        try await TestServer.with(config, catalog: try SharedCatalog.get()) { server async throws in
            // The Hunger Games → Divergent and The Maze Runner; To Kill a Mockingbird → no Lee Child.
            let hunger = try await server.get("/v1/search/similar?isbn=9780439023481&limit=10")
            let titles = try hunger.decode(SimilarBooksResponse.self).results.map(\.title)
            #expect(titles.contains("Divergent (Divergent, #1)"))
            #expect(titles.contains("The Maze Runner (Maze Runner, #1)"))
            let mockingbird = try await server.get("/v1/search/similar?isbn=9780061120084&limit=10")
            let authors = try mockingbird.decode(SimilarBooksResponse.self).results.flatMap(\.authors)
            #expect(!authors.contains("Lee Child"))
            #expect(authors.contains("J.D. Salinger"))
        }
    }
}
