import BooksTrackCatalog
import BooksTrackContract
import Foundation
import Hummingbird

/// The v1 search routes (`/v1/search/isbn|title|author|advanced`): enveloped `BookSearchResponse`,
/// no match is 200 with empty arrays. A title or author query that matches nothing is answered with
/// its spelling corrected, saying what was searched (`correctedQuery`). Results are cached in memory (ISBN 7 days, text 24 h) and
/// marked `X-Cache: HIT|MISS` with a matching `Cache-Control`.
struct SearchRoutes {
    let services: ServerServices

    static let isbnTTL = TimeInterval(AnswerLifetimes.isbnLookup.components.seconds)
    static let textTTL: TimeInterval = 24 * 3600

    func isbn(_ request: Request) throws -> Response {
        let isbn = try QueryParameters(request).isbn()
        return try cached(key: "isbn:\(isbn.isbn13)", ttl: Self.isbnTTL) {
            let book = try services.catalog.book(isbn13: isbn.isbn13)
            return BookSearchResponse(books: book.map { [$0] } ?? [], totalResults: book == nil ? 0 : 1)
        }
    }

    func title(_ request: Request) throws -> Response {
        let query = QueryParameters(request)
        let q = try query.required("q")
        let limit = try query.int("limit", default: SearchPageLimits.defaultLimit, range: SearchPageLimits.limit)
        let offset = try query.int("offset", default: 0, range: SearchPageLimits.offset)
        return try cached(key: "title:\(limit):\(offset):\(q.lowercased())", ttl: Self.textTTL) {
            let page = try services.catalog.searchTitle(q, limit: offset + limit)
            return BookSearchResponse(
                books: Array(page.books.dropFirst(offset)),
                totalResults: page.total,
                correctedQuery: page.correctedQuery
            )
        }
    }

    func author(_ request: Request) throws -> Response {
        let query = QueryParameters(request)
        guard let name = query.optional("name") ?? query.optional("q") else {
            throw APIError.missingParameter("name")
        }
        let limit = try query.int("limit", default: SearchPageLimits.defaultLimit, range: SearchPageLimits.limit)
        let offset = try query.int("offset", default: 0, range: SearchPageLimits.offset)
        return try cached(key: "author:\(limit):\(offset):\(name.lowercased())", ttl: Self.textTTL) {
            let page = try services.catalog.searchAuthor(name, limit: offset + limit)
            return BookSearchResponse(
                books: Array(page.books.dropFirst(offset)),
                totalResults: page.total,
                correctedQuery: page.correctedQuery
            )
        }
    }

    func advanced(_ request: Request) throws -> Response {
        let query = QueryParameters(request)
        let title = query.optional("title")
        let author = query.optional("author")
        guard title != nil || author != nil else {
            throw APIError(
                .missingParameter,
                "Give at least one of 'title' and 'author'",
                details: ["parameters": .array([.string("title"), .string("author")])]
            )
        }
        let limit = try query.int("limit", default: SearchPageLimits.defaultLimit, range: SearchPageLimits.limit)
        let key = "advanced:\(limit):\(title?.lowercased() ?? "")\u{1F}\(author?.lowercased() ?? "")"
        return try cached(key: key, ttl: Self.textTTL) {
            let page = try services.catalog.searchAdvanced(title: title, author: author, limit: limit)
            return BookSearchResponse(books: page.books, totalResults: page.total)
        }
    }

    /// Serves `key` from the response cache or computes, stores and serves it. The cache keeps the
    /// encoded `data`, so a hit writes stored bytes into a fresh envelope.
    private func cached(key: String, ttl: TimeInterval, compute: () throws -> BookSearchResponse) throws -> Response {
        let started = ContinuousClock.now
        let now = services.now()
        var headers = HTTPFields()
        headers[.cacheControl] = "public, max-age=\(Int(ttl))"
        let result: EncodedJSON
        let hit: Bool
        if let stored = services.responseCache.value(EncodedJSON.self, for: key, now: now) {
            result = stored
            hit = true
        } else {
            result = try compute().encodedJSON()
            services.responseCache.store(result, for: key, ttl: ttl, now: now)
            hit = false
        }
        headers[.xCache] = hit ? "HIT" : "MISS"
        let metadata = ResponseMetadata(
            date: now,
            processingTime: started.elapsedMilliseconds,
            provider: localProvider,
            cached: hit,
            source: "goodbooks-10k"
        )
        return JSONResponse.envelope(result, metadata: metadata, headers: headers)
    }
}

extension ContinuousClock.Instant {
    /// Whole milliseconds since this instant.
    var elapsedMilliseconds: Int {
        let d = ContinuousClock.now - self
        return Int(d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000)
    }
}
