import BooksTrackCatalog
import BooksTrackContract
import Foundation
import Hummingbird

/// `GET /api/v2/recommendations/weekly?limit=` (feature `weekly_recommendations`): the bare stand-in
/// shape `{week_of (Monday), books, generated_at, next_refresh (next Monday 00:00 UTC)}`; none → 404.
struct WeeklyRecommendationsRoute {
    let services: ServerServices

    func respond(_ request: Request) throws -> Response {
        try services.require(.weeklyRecommendations)
        let limit = try QueryParameters(request).int("limit", default: 10, range: 1...50)
        let now = services.now()
        let week = ISOWeek(containing: now)
        let picks = try services.catalog.weeklyRecommendations(weekOf: week.monday, limit: limit)
        guard !picks.isEmpty else {
            throw APIError(.notFound, "No recommendations have been generated for the week of \(week.mondayString)")
        }
        let body = WeeklyRecommendationsResponse(
            weekOf: week.mondayString,
            books: picks.map {
                .init(
                    isbn: $0.book.displayISBN ?? "",
                    title: $0.book.title,
                    authors: $0.book.authors,
                    coverUrl: $0.book.imageURL,
                    reason: $0.reason
                )
            },
            generatedAt: ISO8601.string(from: now),
            nextRefresh: ISO8601.string(from: week.nextMonday)
        )
        var headers = HTTPFields()
        let secondsLeft = max(0, Int(week.nextMonday.timeIntervalSince(now)))
        headers[.cacheControl] = "public, max-age=\(secondsLeft)"
        return try JSONResponse.make(body, headers: headers)
    }
}

/// The ISO week (Monday to Sunday, UTC) containing a date.
struct ISOWeek: Sendable, Hashable {
    /// Monday 00:00 UTC.
    var monday: Date
    /// The following Monday 00:00 UTC.
    var nextMonday: Date

    init(containing date: Date) {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let startOfDay = calendar.startOfDay(for: date)
        // weekday: 1 = Sunday … 7 = Saturday; days since Monday = (weekday + 5) % 7.
        let weekday = calendar.component(.weekday, from: startOfDay)
        let sinceMonday = (weekday + 5) % 7
        monday = startOfDay.addingTimeInterval(-Double(sinceMonday) * 86_400)
        nextMonday = monday.addingTimeInterval(7 * 86_400)
    }

    /// `YYYY-MM-DD` of the Monday.
    var mondayString: String { ISO8601.dayString(from: monday) }
}
