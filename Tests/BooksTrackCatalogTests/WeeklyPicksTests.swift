import Foundation
import Testing

@testable import BooksTrackCatalog

/// The weekly picks from a handful of made-up books: no catalog, no database.
@Suite struct WeeklyPicksTests {
    static func book(
        _ id: Int,
        author: String,
        rating: Double = 4.5,
        ratings: Int = 50_000,
        isbn: Bool = true,
        series: String? = nil,
        number: Double? = nil
    ) -> CatalogBook {
        CatalogBook(
            id: id,
            goodreadsBookID: id,
            goodreadsWorkID: id,
            isbn10: nil,
            isbn13: isbn ? String(9_780_000_000_000 + id) : nil,
            title: "Book \(id)",
            originalTitle: nil,
            series: series,
            seriesNumber: number,
            authors: [author],
            year: 2001,
            language: nil,
            averageRating: rating,
            ratingsCount: ratings,
            imageURL: nil,
            smallImageURL: nil
        )
    }

    static let books = [
        book(1, author: "Ann"), book(2, author: "ann"), book(3, author: "Bo"),
        book(4, author: "Cy", rating: 3.9), book(5, author: "Di", ratings: 19_999), book(6, author: "Ed", isbn: false),
        book(7, author: "Fay", series: "Saga", number: 1), book(8, author: "Gil", series: "saga", number: 1),
        book(9, author: "Hal", series: "Other", number: 2), book(10, author: "Ivy"),
    ]

    @Test func picksOnlyEligibleBooksOncePerAuthorAndSeries() throws {
        let week = try #require(ISO8601DateFormatter().date(from: "2021-03-10T12:00:00Z"))
        let picks = WeeklyPicks.picks(from: Self.books, weekOf: week, limit: 10)
        let ids = picks.map(\.book.id)
        #expect(Set(ids).isDisjoint(with: [4, 5, 6, 9]), "too low, too few ratings, no ISBN, not a first volume")
        #expect(ids.filter { [1, 2].contains($0) }.count == 1, "one book per author, case aside")
        #expect(ids.filter { [7, 8].contains($0) }.count == 1, "one book per series, case aside")
        #expect(Set(ids).isSuperset(of: [3, 10]))
        #expect(ids.count == 4)
        #expect(picks.allSatisfy { !$0.reason.isEmpty })
    }

    @Test func sameWeekSamePicksAndTheLimitHolds() throws {
        let formatter = ISO8601DateFormatter()
        let monday = try #require(formatter.date(from: "2021-03-08T00:00:00Z"))
        let sunday = try #require(formatter.date(from: "2021-03-14T23:59:59Z"))
        let first = WeeklyPicks.picks(from: Self.books, weekOf: monday, limit: 10).map(\.book.id)
        #expect(WeeklyPicks.picks(from: Self.books, weekOf: sunday, limit: 10).map(\.book.id) == first)
        #expect(WeeklyPicks.picks(from: Self.books, weekOf: monday, limit: 2).map(\.book.id) == Array(first.prefix(2)))
        #expect(WeeklyPicks.picks(from: Self.books, weekOf: monday, limit: 0).isEmpty)
        #expect(WeeklyPicks.picks(from: [], weekOf: monday, limit: 5).isEmpty)
    }
}
