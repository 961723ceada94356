import BooksTrackCatalog
import BooksTrackContract
import BooksTrackSupport
import Foundation
import Testing

@Suite(.onWorkThreads) struct SearchTests {
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

    /// A title exactly as the catalog lists it (what TAB completion inserts), series suffix included,
    /// finds that book first; every listed title in the first 300 books does.
    @Test func listedTitleWithSeriesSuffixFindsItsBook() throws {
        let catalog = try SharedCatalog.get()
        let earthsea = try catalog.searchTitle("A Wizard of Earthsea (Earthsea Cycle, #1)", limit: 5)
        #expect(earthsea.books.first?.title == "A Wizard of Earthsea (Earthsea Cycle, #1)")
        let advanced = try catalog.searchAdvanced(
            title: "A Wizard of Earthsea (Earthsea Cycle, #1)",
            author: "le guin",
            limit: 5
        )
        #expect(advanced.books.first?.title == "A Wizard of Earthsea (Earthsea Cycle, #1)")
        var missed: [String] = []
        for id in 1...300 {
            guard let book = try catalog.book(id: id) else { continue }
            let found = try catalog.searchTitle(book.title, limit: 20)
            if !found.books.contains(where: { $0.id == id }) { missed.append(book.title) }
        }
        #expect(missed.isEmpty, "not found by their own title: \(missed)")
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

    /// The canonical book first: the series' first book before box sets and companions, an exact
    /// title before a more popular title that merely contains the words.
    @Test func titleSearchPutsTheCanonicalBookFirst() throws {
        let catalog = try SharedCatalog.get()
        #expect(try catalog.searchTitle("harry potter", limit: 10).books.map(\.id).prefix(3) == [2, 23, 18])
        #expect(try catalog.searchTitle("hobbit", limit: 5).books.first?.id == 7)
        #expect(try catalog.searchTitle("wonder", limit: 5).books.first?.id == 250)
        #expect(try catalog.searchTitle("sapiens", limit: 5).books.first?.id == 2205)
        #expect(try catalog.searchTitle("narnia", limit: 5).books.first?.id == 37)
        // Asking for the box set finds it.
        #expect(try catalog.searchTitle("harry potter boxset", limit: 5).books.first?.id == 422)
    }

    /// Hit@1 and hit@10 of title search over the relevance set's title queries (floors: measured
    /// values minus a margin, so a regression fails).
    @Test func titleRelevance() throws {
        let catalog = try SharedCatalog.get()
        let set = try RelevanceSet.load()
        #expect(set.title.count >= 50)
        var hit1 = 0
        var hit10 = 0
        var misses: [String] = []
        for query in set.title {
            let ids = try catalog.searchTitle(query.q, limit: 10).books.map(\.id)
            if let first = ids.first, query.expected.contains(first) { hit1 += 1 } else { misses.append(query.q) }
            if ids.contains(where: query.expected.contains) { hit10 += 1 }
        }
        let n = Double(set.title.count)
        print(
            String(
                format: "[catalog] title hit@1 = %.3f (%d/%d), hit@10 = %.3f; not first: %@",
                Double(hit1) / n,
                hit1,
                set.title.count,
                Double(hit10) / n,
                misses.joined(separator: " | ")
            )
        )
        #expect(Double(hit1) / n >= Self.titleHitAt1Floor)
        #expect(Double(hit10) / n >= Self.titleHitAt10Floor)
    }

    static let titleHitAt1Floor = 0.9
    static let titleHitAt10Floor = 0.95

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
        #expect(
            FTSQuery.expression("harry \"potter\" AND", columns: ["title"])
                == "{title} : \"harry\" AND {title} : \"potter\" AND {title} : \"AND\"*"
        )
        #expect(FTSQuery.expression("*-:", columns: ["title"]) == nil)
        #expect(FTSQuery.terms(String(repeating: "w ", count: 100)).count == FTSQuery.maxTerms)
    }
}
