import BooksTrackContract
import Foundation
import NIOHTTP1

extension BooksTrackAPI {
    /// `GET /api/v2/recommendations/weekly?limit=` — both dialects; production's empty list with a
    /// `message` means "none generated yet" (so does the stand-in's 404, reported as `NOT_FOUND`).
    package func weeklyRecommendations(
        limit: Int? = nil
    ) async throws(BooksTrackError) -> APIResponse<WeeklyRecommendations> {
        var items: [(name: String, value: String)] = []
        let v3 = dialect == .v3
        // v3 takes 1–20 (discovery.ts): a larger limit is clamped, not refused.
        if let limit {
            items.append(("limit", String(v3 ? min(max(limit, 1), V3Limits.recommendations.upperBound) : limit)))
        }
        var spec = RequestSpec(.GET, v3 ? APIPath.v3Weekly : APIPath.weekly, query: items)
        spec.offering = "weekly recommendations"
        spec.notFoundMessage = "No recommendations have been generated for this week yet."
        return try await call(WeeklyRecommendations.self, spec)
    }
}
