import BooksTrackContract
import Foundation

extension BooksTrackAPI {
    /// `GET /api/v2/recommendations/weekly?limit=` — both dialects; production's empty list with a
    /// `message` means "none generated yet" (so does the stand-in's 404, reported as `NOT_FOUND`).
    public func weeklyRecommendations(limit: Int? = nil) async throws(BooksTrackError) -> APIResponse<WeeklyRecommendations> {
        var items: [(name: String, value: String)] = []
        if let limit { items.append(("limit", String(limit))) }
        var spec = RequestSpec(.GET, "/api/v2/recommendations/weekly", query: items)
        spec.notFoundMessage = "No recommendations have been generated for this week yet."
        return try await call(WeeklyRecommendations.self, spec)
    }
}
