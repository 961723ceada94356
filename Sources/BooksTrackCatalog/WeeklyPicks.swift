import BooksTrackContract
import BooksTrackSupport
import Foundation

/// ISO-8601 week arithmetic (UTC) for the weekly recommendations.
package enum ISOWeek {
    /// `(yearForWeekOfYear, weekOfYear, Monday 00:00 UTC)` of the week containing `date`.
    package static func of(_ date: Date) -> (year: Int, week: Int, monday: Date) {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
        let year = parts.yearForWeekOfYear ?? 1970
        let week = parts.weekOfYear ?? 1
        let monday = calendar.dateInterval(of: .weekOfYear, for: date)?.start ?? date
        return (year, week, monday)
    }
}

/// The weekly recommendations, picked from the books alone (no I/O): the same books for every
/// caller in one ISO week, each with a short reason built from its data.
enum WeeklyPicks {
    /// Eligible for the weekly selection: average ≥ 4.0 with at least this many ratings and an ISBN.
    static let minRating = 4.0
    static let minRatings = 20_000

    /// Picks `limit` well-rated books for the ISO week of `weekOf`: a seeded (FNV-1a of "YYYY-Www")
    /// shuffle of the eligible books (series only from their first entry), taking at most one book
    /// per author and per series.
    static func picks(from books: [CatalogBook], weekOf: Date, limit: Int) -> [Recommendation] {
        let limit = min(max(limit, 0), 100)
        guard limit > 0 else { return [] }
        let week = ISOWeek.of(weekOf)
        let seedText = String(format: "%04d-W%02d", week.year, week.week)
        var rng = SplitMix64(seed: HashingEmbedding.fnv1a64("weekly:" + seedText))
        let eligible = books.filter {
            $0.averageRating >= Self.minRating && $0.ratingsCount >= Self.minRatings
                && $0.isbn13 != nil && ($0.series == nil || ($0.seriesNumber ?? 1) <= 1)
        }
        var picked: [Recommendation] = []
        var authors: Set<String> = []
        var series: Set<String> = []
        for book in eligible.shuffled(using: &rng) {
            let author = book.authors.first?.lowercased() ?? ""
            if authors.contains(author) { continue }
            if let s = book.series?.lowercased(), series.contains(s) { continue }
            authors.insert(author)
            if let s = book.series?.lowercased() { series.insert(s) }
            picked.append(Recommendation(book: book, reason: Self.reason(for: book, variant: rng.next())))
            if picked.count == limit { break }
        }
        return picked
    }

    /// A short reason built from the book's data.
    static func reason(for book: CatalogBook, variant: UInt64) -> String {
        let rated = "rated \(String(format: "%.2f", book.averageRating)) by \(readers(book.ratingsCount)) readers"
        if let series = book.series {
            if let n = book.seriesNumber, n <= 1 {
                return "Starts \(seriesPhrase(series)), \(rated)"
            }
            let position = book.seriesNumber.map { n in n == n.rounded() ? " (#\(Int(n)))" : " (#\(n))" } ?? ""
            return "Part of \(seriesPhrase(series))\(position), \(rated)"
        }
        if let year = book.year, variant % 2 == 0 {
            let when = year < 0 ? "\(-year) BC" : "\(year)"
            return year < 1900 ? "A classic from \(when), \(rated)" : "A \(when) favourite, \(rated)"
        }
        return "R" + rated.dropFirst()
    }

    /// "The Mortal Instruments" → "the Mortal Instruments series"; "The Ascendance Trilogy" → "the Ascendance Trilogy".
    static func seriesPhrase(_ series: String) -> String {
        var name = series
        if name.lowercased().hasPrefix("the ") { name = String(name.dropFirst(4)) }
        let last = name.split(separator: " ").last?.lowercased() ?? ""
        let collective: Set<String> = [
            "series", "trilogy", "saga", "chronicles", "cycle", "quartet", "sequence", "duology",
        ]
        return "the " + name + (collective.contains(last) ? "" : " series")
    }

    /// 1_234_567 → "1.2M", 45_300 → "45K", 812 → "812".
    static func readers(_ n: Int) -> String {
        if n >= 1_000_000 { return String(format: "%.1fM", Double(n) / 1_000_000) }
        if n >= 10_000 { return "\(n / 1000)K" }
        if n >= 1000 { return String(format: "%.1fK", Double(n) / 1000) }
        return "\(n)"
    }
}
