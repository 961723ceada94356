import BooksTrackCatalog
import Testing

/// Recommendations of one series come in series order (#2 before #3) in the rows the ranking gave
/// the series; other books, and a series' side books (#0.5, #2.5), keep their rows.
@Suite struct SeriesOrderTests {
    static func book(_ id: Int, _ title: String, series: String? = nil, number: Double? = nil) -> CatalogBook {
        CatalogBook(
            id: id,
            goodreadsBookID: id,
            goodreadsWorkID: id,
            isbn10: nil,
            isbn13: nil,
            title: title,
            originalTitle: nil,
            series: series,
            seriesNumber: number,
            authors: ["A"],
            year: nil,
            language: nil,
            averageRating: 4,
            ratingsCount: 100,
            imageURL: nil,
            smallImageURL: nil
        )
    }

    static func titles(_ books: [CatalogBook]) -> [String] {
        SeriesOrder.inSeriesOrder(books, book: { $0 }).map(\.title)
    }

    @Test func aSeriesTakesItsRowsInSeriesOrder() {
        let ranked = [
            Self.book(1, "Mockingjay", series: "The Hunger Games", number: 3),
            Self.book(2, "Legend", series: "Legend", number: 1),
            Self.book(3, "Catching Fire", series: "The Hunger Games", number: 2),
            Self.book(4, "Unrelated"),
        ]
        #expect(Self.titles(ranked) == ["Catching Fire", "Legend", "Mockingjay", "Unrelated"])
    }

    @Test func theSeriesNameIsMatchedWhateverItsCase() {
        let ranked = [
            Self.book(1, "Three", series: "Saga", number: 3), Self.book(2, "Five", series: "saga", number: 5),
            Self.book(3, "Two", series: "SAGA", number: 2),
        ]
        #expect(Self.titles(ranked) == ["Two", "Three", "Five"])
    }

    @Test func sideBooksAndOtherBooksKeepTheirRows() {
        let ranked = [
            Self.book(1, "Four (a collection)", series: "Divergent", number: 0.1),
            Self.book(2, "Allegiant", series: "Divergent", number: 3),
            Self.book(3, "Novella", series: "Divergent", number: 2.5),
            Self.book(4, "Insurgent", series: "Divergent", number: 2),
            Self.book(5, "Standalone"),
        ]
        #expect(Self.titles(ranked) == ["Four (a collection)", "Insurgent", "Novella", "Allegiant", "Standalone"])
        // Already in order, or one book of a series: nothing moves.
        let ordered = [Self.book(1, "One", series: "S", number: 1), Self.book(2, "Two", series: "S", number: 2)]
        #expect(Self.titles(ordered) == ["One", "Two"])
        #expect(Self.titles([]) == [])
    }
}
