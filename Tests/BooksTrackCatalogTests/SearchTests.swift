import BooksTrackContract
import Foundation
import Testing

@testable import BooksTrackCatalog

@Suite struct SearchTests {
    @Test func isbnLookupFromTenAndThirteen() throws {
        let catalog = try SharedCatalog.get()
        let byThirteen = try #require(try catalog.book(isbn13: "9780439023481"))
        #expect(byThirteen.id == 1)
        #expect(byThirteen.series == "The Hunger Games" && byThirteen.seriesNumber == 1)
        let ten = try #require(ISBN("0439023483"))
        #expect(try catalog.book(isbn13: ten.isbn13)?.id == 1)
        #expect(try catalog.book(isbn: "0-439-02348-3")?.id == 1)
        #expect(try catalog.book(isbn13: "978-0-439-02348-1")?.id == 1)
        #expect(try catalog.book(isbn13: "9780000000002") == nil)
        #expect(try catalog.book(isbn: "garbage") == nil)
        #expect(try catalog.book(id: 10_001) == nil)
        #expect(try catalog.book(id: 2)?.authors == ["J.K. Rowling", "Mary GrandPré"])
    }

    @Test func titleSearchRanksTheBookFirstWithPrefixOnLastTerm() throws {
        let catalog = try SharedCatalog.get()
        let page = try catalog.searchTitle("hunger games", limit: 5)
        #expect(page.books.first?.id == 1)
        #expect(page.total >= 5)
        #expect(page.books.count == 5)
        let prefix = try catalog.searchTitle("mockingb", limit: 10)
        #expect(prefix.books.contains { $0.id == 4 })
        // Diacritics folded: "Les Misérables" found without the accent.
        let folded = try catalog.searchTitle("les miserables", limit: 5)
        #expect(folded.books.contains { $0.title.contains("Misérables") })
        // Original titles are searched too.
        let original = try catalog.searchTitle("philosopher's stone", limit: 5)
        #expect(original.books.contains { $0.id == 2 })
        #expect(try catalog.searchTitle("zzzqqqxxy", limit: 5) == CatalogPage(books: [], total: 0))
        #expect(try catalog.searchTitle("hunger games", limit: 0).books.isEmpty)
    }

    @Test func authorSearchIsMostRatedFirst() throws {
        let catalog = try SharedCatalog.get()
        let page = try catalog.searchAuthor("tolkien", limit: 20)
        #expect(page.books.first?.id == 7)
        let counts = page.books.map(\.ratingsCount)
        #expect(counts == counts.sorted(by: >))
        #expect(page.books.allSatisfy { $0.authors.contains { $0.contains("Tolkien") } })
        #expect(try catalog.searchAuthor("rowling", limit: 3).books.first?.id == 2)
    }

    @Test func advancedSearchAndsBothFilters() throws {
        let catalog = try SharedCatalog.get()
        let both = try catalog.searchAdvanced(title: "the hobbit", author: "tolkien", limit: 10)
        #expect(both.books.first?.id == 7)
        #expect(both.books.allSatisfy { $0.authors.contains { $0.contains("Tolkien") } })
        let onlyTitle = try catalog.searchAdvanced(title: "the hobbit", author: nil, limit: 10)
        #expect(onlyTitle.total >= both.total)
        let onlyAuthor = try catalog.searchAdvanced(title: nil, author: "suzanne collins", limit: 10)
        #expect(onlyAuthor.books.first?.id == 1)
        let mismatch = try catalog.searchAdvanced(title: "hobbit", author: "rowling", limit: 10)
        #expect(mismatch.total == 0)
        #expect(try catalog.searchAdvanced(title: nil, author: nil, limit: 10).total == 0)
    }

    @Test(arguments: [
        "\"", "\"\"\"", "*", "-", ":", "AND", "OR", "NOT", "NEAR", "harry AND", "title:harry", "-harry", "harry*",
        "(harry", "{title}: x", "^harry", "\u{0}", "'; DROP TABLE books; --", "🙂📚", "   ", "",
        String(repeating: "a ", count: 500), String(repeating: "x", count: 5000),
    ])
    func hostileQueriesNeverThrow(query: String) throws {
        let catalog = try SharedCatalog.get()
        let page = try catalog.searchTitle(query, limit: 10)
        #expect(page.books.count <= 10 && page.total >= page.books.count)
        _ = try catalog.searchAuthor(query, limit: 10)
        _ = try catalog.searchAdvanced(title: query, author: query, limit: 10)
        let semantic = try catalog.semantic(query, limit: 10, offset: 0)
        #expect(semantic.allSatisfy { (0...1).contains($0.score) })
        _ = try catalog.hybrid(query, limit: 10, offset: 0)
    }

    @Test func fuzzedQueriesNeverThrow() throws {
        let catalog = try SharedCatalog.get()
        var rng = SplitMix64(seed: 0xB00C)
        let alphabet = Array("abcdefgh xyz\"*-:()^{}+.,'AND OR NOT NEAR é漢🙂\t\n\\/%_0123456789")
        for i in 0..<300 {
            let length = Int(rng.next() % 40)
            let query = String((0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
            let limit = Int(rng.next() % 30)
            let page = try catalog.searchTitle(query, limit: limit)
            #expect(page.books.count <= limit)
            #expect(page.total >= page.books.count)
            let author = try catalog.searchAuthor(query, limit: limit)
            #expect(author.books.count <= limit)
            if i % 10 == 0 {  // vector scans are slow in debug builds: sample them
                let hits = try catalog.semantic(query, limit: limit, offset: Int(rng.next() % 5))
                #expect(hits.count <= limit)
            }
        }
    }

    @Test func ftsExpressionQuotesEveryTerm() {
        #expect(FTSQuery.expression("harry \"potter\" AND", columns: ["title"]) == "{title} : \"harry\" AND {title} : \"potter\" AND {title} : \"AND\"*")
        #expect(FTSQuery.expression("*-:", columns: ["title"]) == nil)
        #expect(FTSQuery.terms(String(repeating: "w ", count: 100)).count == FTSQuery.maxTerms)
    }
}
