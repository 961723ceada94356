import BooksTrackContract
import Foundation
import NIOHTTP1

extension BooksTrackAPI {
    /// `GET /v1/search/similar?isbn=&limit=` (limit 1–50, default 10). Both the documented bare shape
    /// and production's (bare or enveloped) decode to `SimilarResults`.
    package func similar(isbn: String, limit: Int? = nil) async throws(BooksTrackError) -> APIResponse<SimilarResults> {
        let parsed: ISBN
        do { parsed = try ISBN(parsing: isbn) } catch {
            throw BooksTrackError(
                code: .invalidISBN,
                kind: .invalidInput,
                message: ErrorCode.invalidISBN.userMessage(),
                detail: "\(isbn): \(error.message)"
            )
        }
        var items: [(name: String, value: String)] = [("isbn", parsed.isbn13)]
        if let limit { items.append(("limit", String(limit))) }
        var spec = RequestSpec(.GET, APIPath.similarSearch, query: items)
        spec.notFoundMessage = "No similar books: the ISBN is unknown or has no vector."
        spec.offering = "similar books"
        // API v3 has no similar route although /v3/capabilities advertises `similar_books`.
        return try await legacyFallback(SimilarResults.self, spec)
    }
}
