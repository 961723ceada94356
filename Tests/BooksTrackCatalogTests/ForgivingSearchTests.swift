import BooksTrackCatalog
import Testing

/// Forgiving and free-form search over the real catalog: misspelt words corrected (saying so),
/// title and author words in one query, an author's own books before books about them, and exact
/// titles still first.
@Suite(.onWorkThreads) struct ForgivingSearchTests {
    /// Misspelt author and title words find their books, and the page says what was searched.
    @Test func misspeltQueriesAreCorrected() throws {
        let catalog = try SharedCatalog.get()
        let tolkien = try catalog.searchAuthor("tolkein", limit: 5)
        #expect(tolkien.correctedQuery == "tolkien")
        #expect(tolkien.books.count == 5)
        #expect(tolkien.books.allSatisfy { $0.authors.contains("J.R.R. Tolkien") }, "\(tolkien.books.map(\.title))")
        #expect(tolkien.books.first?.id == 7)

        for query in ["hunger gmes", "the hunger gmes"] {
            let games = try catalog.searchTitle(query, limit: 5)
            #expect(games.correctedQuery?.hasSuffix("hunger games") == true, "\(query)")
            #expect(games.books.contains { $0.id == 1 }, "\(query): \(games.books.map(\.title))")
        }
        let rowling = try catalog.searchAuthor("jk rowling", limit: 3)
        #expect(rowling.correctedQuery == "j k rowling")
        #expect(rowling.books.first?.id == 2)
        // A free-form query corrects an author's name too.
        let byAuthor = try catalog.searchTitle("tolkein", limit: 5)
        #expect(byAuthor.correctedQuery == "tolkien")
        #expect(byAuthor.books.contains { $0.id == 7 }, "\(byAuthor.books.map(\.title))")
    }

    /// A correction never hides the query's own matches, and nothing is invented for a query that
    /// no correction finds.
    @Test func exactMatchesAreNeverCorrected() throws {
        let catalog = try SharedCatalog.get()
        for query in ["dune", "fahrenheit 451", "the hobbit", "hunger games"] {
            #expect(try catalog.searchTitle(query, limit: 5).correctedQuery == nil, "\(query)")
        }
        #expect(try catalog.searchTitle("dune", limit: 5).books.first?.title.hasPrefix("Dune") == true)
        #expect(try catalog.searchTitle("fahrenheit 451", limit: 5).books.first?.title == "Fahrenheit 451")
        #expect(try catalog.searchTitle("the hobbit", limit: 5).books.first?.id == 7)
        #expect(try catalog.searchAuthor("tolkien", limit: 5).correctedQuery == nil)
        let nothing = try catalog.searchTitle("zzzqqqxxy", limit: 5)
        #expect(nothing == CatalogPage(books: [], total: 0))
        #expect(try catalog.searchAuthor("zzzqqqxxy", limit: 5) == CatalogPage(books: [], total: 0))
    }

    /// Title and author words in one query find the book, the book matching every word first.
    @Test func titleAndAuthorWordsInOneQuery() throws {
        let catalog = try SharedCatalog.get()
        let shining = try catalog.searchTitle("the shining stephen king", limit: 5)
        #expect(shining.books.first?.title.hasPrefix("The Shining") == true, "\(shining.books.map(\.title))")
        #expect(shining.books.first?.authors.first == "Stephen King")
        #expect(shining.correctedQuery == nil)
        let foundation = try catalog.searchTitle("foundation asimov", limit: 5)
        #expect(foundation.books.first?.title.hasPrefix("Foundation") == true, "\(foundation.books.map(\.title))")
        #expect(foundation.books.first?.authors.first == "Isaac Asimov")
    }

    /// A query that is an author's name lists that author's books before books that mention it.
    @Test func anAuthorsNameListsTheirOwnBooksFirst() throws {
        let catalog = try SharedCatalog.get()
        let king = try catalog.searchTitle("stephen king", limit: 10)
        let own = king.books.prefix(5).filter { $0.authors.first == "Stephen King" }
        #expect(own.count == 5, "\(king.books.map(\.title))")
        let byKing = king.books.filter { $0.authors.contains("Stephen King") }.count
        #expect(byKing >= 8, "\(king.books.map(\.title))")
    }

    /// The advanced search's title is still matched in titles only.
    @Test func theAdvancedTitleStaysATitle() throws {
        let catalog = try SharedCatalog.get()
        let page = try catalog.searchAdvanced(title: "stephen king", author: nil, limit: 10)
        #expect(
            page.books.allSatisfy { book in
                let words = HashingEmbedding.tokens(
                    book.title + " " + (book.originalTitle ?? "") + " " + (book.series ?? "")
                )
                return words.contains("stephen") && words.contains { $0.hasPrefix("king") }
            },
            "\(page.books.map(\.title))"
        )
        #expect(page.total < (try catalog.searchTitle("stephen king", limit: 0)).total)
    }
}
