import BooksTrackCatalog
import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

@Suite struct RealCatalogTests {
    @Test func isbnTitleAuthorAdvanced() async throws {
        let catalog = try SharedCatalog.get()
        try await TestServer.with(catalog: catalog) { server async throws in
            let isbn = try await server.get("/v1/search/isbn?isbn=9780439023481")
            let work = try #require(try isbn.decode(Envelope<BookSearchResponse>.self).data?.works.first)
            #expect(work.title.contains("Hunger Games"))
            #expect(work.contributors == ["Suzanne Collins"])

            let title = try await server.get("/v1/search/title?q=hunger%20games&limit=5")
            let titles = try #require(try title.decode(Envelope<BookSearchResponse>.self).data)
            #expect(!titles.works.isEmpty && titles.works.count <= 5)
            #expect(titles.works.count == titles.editions.count)
            // authors[i] belongs to works[i], so clients can attribute every result.
            #expect(titles.authors.count == titles.works.count)
            let normalized = SearchResults(titles)
            #expect(normalized.items.allSatisfy { !$0.authors.isEmpty })
            #expect(normalized.items.first?.authors == ["Suzanne Collins"])

            let potter = try await server.get("/v1/search/isbn?isbn=9780439554930")
            let potterData = try #require(try potter.decode(Envelope<BookSearchResponse>.self).data)
            let potterItem = try #require(SearchResults(potterData).items.first)
            #expect(potterItem.authors == ["J.K. Rowling", "Mary GrandPré"])

            let author = try await server.get("/v1/search/author?name=Rowling&limit=3")
            let byAuthor = try #require(try author.decode(Envelope<BookSearchResponse>.self).data)
            #expect(byAuthor.authors.contains { $0.name == "J.K. Rowling" })

            let advanced = try await server.get("/v1/search/advanced?title=gatsby&author=fitzgerald")
            #expect(try advanced.decode(Envelope<BookSearchResponse>.self).data?.works.isEmpty == false)
        }
    }

    @Test func vectorRoutes() async throws {
        let catalog = try SharedCatalog.get()
        var config = TestServer.testConfiguration()
        config.rateLimitsEnabled = false
        try await TestServer.with(config, catalog: catalog) { server async throws in
            let similar = try await server.get("/v1/search/similar?isbn=9780439023481&limit=5")
            #expect(similar.status == 200)
            let body = try similar.decode(SimilarBooksResponse.self)
            #expect(body.results.count == 5 && !body.results.contains { $0.isbn == "9780439023481" })

            for mode in ["semantic", "hybrid", "text"] {
                let response = try await server.get("/api/v2/search?q=wizard%20school%20magic&mode=\(mode)&limit=5")
                #expect(response.status == 200, "\(mode)")
                let data = try #require(try response.decode(Envelope<V2SearchResponse>.self).data)
                #expect(data.results.allSatisfy { (0...1).contains($0.score) })
                if mode != "text" { #expect(data.results.count == 5) }
            }

            let weekly = try await server.get("/api/v2/recommendations/weekly?limit=5")
            #expect(weekly.status == 200)
            #expect(try weekly.decode(WeeklyRecommendationsResponse.self).books.count == 5)

            let enrich = try await server.postJSON("/api/v2/books/enrich", #"{"barcode":"0439023483"}"#)
            #expect(try enrich.decode(Envelope<EnrichedBook>.self).data?.isbn == "9780439023481")
        }
    }
}
