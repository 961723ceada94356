import BooksTrackCatalog
import BooksTrackContract
import Foundation
import Hummingbird

/// `GET /v1/search/similar?isbn=&limit=` (feature `similar_books`): the bare stand-in shape
/// `{results, source_isbn, total}`; unknown ISBN → 404. Cached 24 h (`X-Cache`).
struct SimilarRoute {
    let services: ServerServices

    static let ttl: TimeInterval = 24 * 3600

    func respond(_ request: Request) throws -> Response {
        try services.require(.similarBooks)
        let query = QueryParameters(request)
        let isbn = try query.isbn()
        let limit = try query.int("limit", default: 10, range: 1...50)
        let key = "similar:\(limit):\(isbn.isbn13)"
        let now = services.now()
        var headers = HTTPFields()
        headers[.cacheControl] = "public, max-age=\(Int(Self.ttl))"
        if let stored = services.responseCache.value(EncodedJSON.self, for: key, now: now) {
            headers[.xCache] = "HIT"
            return JSONResponse.make(stored, headers: headers)
        }
        let body = try EncodedJSON(Self.similar(isbn: isbn, limit: limit, catalog: services.catalog))
        services.responseCache.store(body, for: key, ttl: Self.ttl, now: now)
        headers[.xCache] = "MISS"
        return JSONResponse.make(body, headers: headers)
    }

    static func similar(isbn: ISBN, limit: Int, catalog: any CatalogQuerying) throws -> SimilarBooksResponse {
        guard let neighbours = try catalog.similar(isbn13: isbn.isbn13, limit: limit) else {
            throw APIError.bookNotFound(isbn.value)
        }
        let items =
            neighbours
            .filter { $0.book.isbn13 != isbn.isbn13 }
            .prefix(limit)
            .map { scored in
                SimilarBooksResponse.Item(
                    isbn: scored.book.displayISBN ?? "",
                    title: scored.book.title,
                    authors: scored.book.authors,
                    similarityScore: min(1, max(0, scored.score)),
                    coverUrl: scored.book.imageURL
                )
            }
        return SimilarBooksResponse(results: Array(items), sourceISBN: isbn.isbn13, total: items.count)
    }
}
