import Foundation
import Testing

@testable import BooksTrackCatalog

@Suite(.onWorkThreads) struct RecommendationTests {
    private func date(_ text: String) throws -> Date {
        let formatter = ISO8601DateFormatter()
        return try #require(formatter.date(from: text))
    }

    @Test func stableWithinAWeekAndDifferentAcrossWeeks() throws {
        let catalog = try SharedCatalog.get()
        // 2026-11-16 is a Monday; the 22nd is the Sunday of the same ISO week.
        let monday = try catalog.weeklyRecommendations(weekOf: try date("2026-11-16T00:00:00Z"), limit: 10)
        let sunday = try catalog.weeklyRecommendations(weekOf: try date("2026-11-22T23:59:59Z"), limit: 10)
        let nextWeek = try catalog.weeklyRecommendations(weekOf: try date("2026-11-23T00:00:00Z"), limit: 10)
        #expect(monday.count == 10)
        #expect(monday == sunday)
        #expect(monday.map(\.book.id) != nextWeek.map(\.book.id))
        #expect(Set(monday.map(\.book.id)).count == 10)
    }

    @Test func wellRatedVariedAuthorsWithDataReasons() throws {
        let catalog = try SharedCatalog.get()
        var weekStart = try date("2025-01-06T12:00:00Z")
        for _ in 0..<8 {
            let picks = try catalog.weeklyRecommendations(weekOf: weekStart, limit: 12)
            #expect(picks.count == 12)
            #expect(
                picks.allSatisfy {
                    $0.book.averageRating >= 4.0 && $0.book.ratingsCount >= 20_000 && $0.book.isbn13 != nil
                }
            )
            let authors = picks.compactMap { $0.book.authors.first }
            #expect(Set(authors).count == authors.count)
            for pick in picks {
                #expect(pick.reason.contains(String(format: "%.2f", pick.book.averageRating)))
                if let series = pick.book.series {
                    #expect(pick.reason.contains(WeeklyPicks.seriesPhrase(series)))
                    #expect((pick.book.seriesNumber ?? 1) <= 1)
                }
            }
            weekStart = weekStart.addingTimeInterval(7 * 86_400)
        }
        #expect(try catalog.weeklyRecommendations(weekOf: weekStart, limit: 0).isEmpty)
    }

    @Test func isoWeekHandlesYearBoundaries() throws {
        // 2021-01-03 (Sunday) belongs to ISO week 53 of 2020.
        let w = ISOWeek.of(try date("2021-01-03T10:00:00Z"))
        #expect(w.year == 2020 && w.week == 53)
        #expect(w.monday == (try date("2020-12-28T00:00:00Z")))
    }

    @Test func reasonsReadNaturally() {
        #expect(WeeklyPicks.seriesPhrase("The Mortal Instruments") == "the Mortal Instruments series")
        #expect(WeeklyPicks.seriesPhrase("The Ascendance Trilogy") == "the Ascendance Trilogy")
        #expect(WeeklyPicks.seriesPhrase("Harry Potter") == "the Harry Potter series")
        let hp = CatalogBook(
            id: 2,
            goodreadsBookID: 3,
            goodreadsWorkID: 4,
            isbn10: nil,
            isbn13: nil,
            title: "HP",
            originalTitle: nil,
            series: "Harry Potter",
            seriesNumber: 1,
            authors: ["J.K. Rowling"],
            year: 1997,
            language: "en",
            averageRating: 4.44,
            ratingsCount: 4_602_479,
            imageURL: nil,
            smallImageURL: nil
        )
        #expect(
            WeeklyPicks.reason(for: hp, variant: 0) == "Starts the Harry Potter series, rated 4.44 by 4.6M readers"
        )
        var standalone = hp
        standalone.series = nil
        standalone.seriesNumber = nil
        #expect(WeeklyPicks.reason(for: standalone, variant: 0) == "A 1997 favourite, rated 4.44 by 4.6M readers")
        #expect(WeeklyPicks.reason(for: standalone, variant: 1) == "Rated 4.44 by 4.6M readers")
        standalone.year = -800
        #expect(
            WeeklyPicks.reason(for: standalone, variant: 0) == "A classic from 800 BC, rated 4.44 by 4.6M readers"
        )
    }

    @Test func readersFormatting() {
        #expect(WeeklyPicks.readers(1_234_567) == "1.2M")
        #expect(WeeklyPicks.readers(45_300) == "45K")
        #expect(WeeklyPicks.readers(812) == "812")
    }
}
