import Testing

@testable import BooksTrackCatalog

/// The choice among ranked neighbours, on made-up books: no shelves, no database.
@Suite struct NeighbourSelectionTests {
    static func book(_ id: Int, _ title: String, author: String, series: String? = nil) -> CatalogBook {
        CatalogBook(
            id: id,
            goodreadsBookID: id,
            goodreadsWorkID: id,
            isbn10: nil,
            isbn13: nil,
            title: title,
            originalTitle: nil,
            series: series,
            seriesNumber: nil,
            authors: [author],
            year: nil,
            language: nil,
            averageRating: 4,
            ratingsCount: 100,
            imageURL: nil,
            smallImageURL: nil
        )
    }

    static let books = [
        book(0, "Dune", author: "Herbert"),
        book(1, "Dune", author: "Herbert"),  // another edition of row 0's work
        book(2, "Children of Dune", author: "Herbert"),
        book(3, "Hyperion", author: "Simmons"),
        book(4, "Endymion", author: "Simmons"),
        book(5, "Foundation", author: "Asimov"),
        book(6, "Solaris", author: "Lem"),
    ]

    static func ranked(_ rows: [Int]) -> [(row: Int, score: Float)] {
        rows.enumerated().map { (row: $0.element, score: 1 - Float($0.offset) / 10) }
    }

    @Test func oneRowPerWorkAtMostPerAuthorAndExcludedWorksLeftOut() {
        let all = Self.ranked([0, 1, 2, 3, 4, 5, 6])
        let chosen = NeighbourSelection.select(all, books: Self.books, excludingWorks: [], limit: 10, perAuthor: 1)
        #expect(chosen.map(\.row) == [0, 3, 5, 6])
        let solaris = Set(WorkIdentity.keys(Self.books[6]))
        let without = NeighbourSelection.select(all, books: Self.books, excludingWorks: solaris, limit: 3)
        #expect(without.map(\.row) == [0, 2, 3])
        #expect(NeighbourSelection.select(all, books: Self.books, excludingWorks: [], limit: 0).isEmpty)
    }

    /// At most `own.limit` own books; one `own.first` holds for keeps a place however low it ranks.
    @Test func ownBooksAreCappedAndTheFirstKeepsItsPlace() {
        let all = Self.ranked([3, 4, 5, 6, 0, 2])
        let own: NeighbourSelection.Own = (
            test: { $0.authors.first == "Herbert" || $0.authors.first == "Simmons" },
            first: { $0.title == "Children of Dune" },
            limit: 2
        )
        let chosen = NeighbourSelection.select(all, books: Self.books, excludingWorks: [], limit: 3, own: own)
        #expect(chosen.map(\.row) == [3, 5, 2])
    }
}

/// A work's identity drops the series suffix, the subtitle and an "and other …" tail.
@Suite struct WorkIdentityTests {
    @Test func editionsOfOneWorkShareAKey() {
        let hobbit = WorkIdentity.key(title: "The Hobbit", author: "J.R.R. Tolkien")
        #expect(WorkIdentity.key(title: "The Hobbit: Graphic Novel", author: "J.R.R. Tolkien") == hobbit)
        #expect(WorkIdentity.key(title: "The Hobbit (Middle-earth, #0)", author: "J.R.R. Tolkien") == hobbit)
        #expect(WorkIdentity.key(title: "The Hobbit", author: "Someone Else") != hobbit)
        let jekyll = WorkIdentity.key(title: "The Strange Case of Dr. Jekyll and Mr. Hyde", author: "Stevenson")
        #expect(
            WorkIdentity.key(title: "The Strange Case of Dr. Jekyll and Mr. Hyde and Other Tales", author: "Stevenson")
                == jekyll
        )
        let two = NeighbourSelectionTests.book(1, "Good Omens", author: "Pratchett")
        #expect(WorkIdentity.keys(two) == [WorkIdentity.key(title: "Good Omens", author: "Pratchett")])
    }
}
