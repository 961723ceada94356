import BooksTrackContract
import Foundation

/// How long an answer is kept when the server sends no `Cache-Control` (the seeds' client):
/// ISBN lookups 7 days, searches 5 minutes, similar books and weekly recommendations until the
/// week turns (Sunday 00:00 UTC, when v3's `weekOf` changes).
enum CacheSeeds {
    static let isbnLookup = AnswerLifetimes.isbnLookup
    static let search: Duration = .seconds(300)

    /// The seed TTL of a GET of `path` (with its `mode` query item), nil for routes never cached
    /// (jobs, tokens, capabilities, health, anything else).
    static func ttl(path: String, mode: String?, now: Date) -> Duration? {
        if path.contains("/jobs/") || path.contains("/token") { return nil }
        switch path {
        case APIPath.isbnSearch: return isbnLookup
        case APIPath.titleSearch, APIPath.authorSearch, APIPath.advancedSearch, APIPath.v3Search:
            return search
        case APIPath.search:
            return mode == "similar" ? untilWeekTurns(now) : search
        case APIPath.similarSearch, APIPath.weekly, APIPath.v3Weekly:
            return untilWeekTurns(now)
        default:
            return path.hasPrefix("/v3/books/") && !path.dropFirst(10).contains("/") ? isbnLookup : nil
        }
    }

    /// The time from `now` to the next Sunday 00:00 UTC (a full week at that very instant).
    static func untilWeekTurns(_ now: Date) -> Duration {
        .seconds(Int64(nextWeek(after: now).timeIntervalSince(now).rounded(.up)))
    }

    /// The next Sunday 00:00 UTC after `now`.
    static func nextWeek(after now: Date) -> Date {
        let day: TimeInterval = 86_400
        let days = (now.timeIntervalSince1970 / day).rounded(.down)
        // 1970-01-01 was a Thursday: day 3 after it was the first Sunday.
        let weekday = (Int(days) - 3) % 7
        let sinceSunday = weekday < 0 ? weekday + 7 : weekday
        return Date(timeIntervalSince1970: (days + Double(7 - sinceSunday)) * day)
    }
}
