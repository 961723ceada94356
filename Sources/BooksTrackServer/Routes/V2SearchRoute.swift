import BooksTrackCatalog
import BooksTrackContract
import Foundation
import Hummingbird

/// `GET /api/v2/search?q=&mode=&limit=&offset=`: enveloped `{query, results, totalCount}` with
/// `metadata.searchMode`. `q=similar:<isbn>` forces similar mode; semantic and hybrid need
/// `semantic_search`, similar needs `similar_books`.
struct V2SearchRoute {
    let services: ServerServices

    static let similarPrefix = "similar:"

    func respond(_ request: Request) throws -> Response {
        let started = ContinuousClock.now
        let query = QueryParameters(request)
        var q = try query.required("q")
        var mode = SearchMode.text
        if let text = query.string("mode") {
            guard let parsed = SearchMode(rawValue: text.lowercased()) else {
                throw APIError.invalidParameter(
                    "mode",
                    "'mode' must be one of text, semantic, hybrid, similar; got '\(text.prefix(40))'"
                )
            }
            mode = parsed
        }
        if q.lowercased().hasPrefix(Self.similarPrefix) {
            mode = .similar
            q = String(q.dropFirst(Self.similarPrefix.count)).trimmingCharacters(in: .whitespaces)
            guard !q.isEmpty else { throw APIError.missingParameter("q") }
        }
        let limit = try query.int("limit", default: 20, range: 1...50)
        let offset = try query.int("offset", default: 0, range: 0...10_000)

        let hits: [SearchHit]
        let total: Int
        var corrected: String?
        switch mode {
        case .text:
            (hits, total, corrected) = try textSearch(q, limit: limit, offset: offset)
        case .semantic:
            try services.require(.semanticSearch)
            hits = try Self.semantic { try services.catalog.semantic(q, limit: limit, offset: offset) }
            total = offset + hits.count
        case .hybrid:
            try services.require(.semanticSearch)
            hits = try Self.semantic { try services.catalog.hybrid(q, limit: limit, offset: offset) }
            total = offset + hits.count
        case .similar:
            try services.require(.similarBooks)
            let isbn = try QueryParameters.parseISBN(q)
            guard let neighbours = try services.catalog.similar(isbn13: isbn.isbn13, limit: offset + limit) else {
                throw APIError.bookNotFound(isbn.value)
            }
            let all = neighbours.filter { $0.book.isbn13 != isbn.isbn13 }
            hits = all.dropFirst(offset).prefix(limit).map { SearchHit(book: $0.book, score: $0.score) }
            total = all.count
        }
        let body = V2SearchResponse(
            query: .init(q: q, mode: mode, limit: limit, offset: offset),
            results: hits,
            totalCount: total,
            correctedQuery: corrected
        )
        let metadata = ResponseMetadata(
            date: services.now(),
            processingTime: started.elapsedMilliseconds,
            provider: localProvider,
            source: "goodbooks-10k",
            searchMode: mode
        )
        guard let encoded = body.encodedJSON() else { return try JSONResponse.envelope(body, metadata: metadata) }
        return JSONResponse.envelope(encoded, metadata: metadata)
    }

    /// Semantic or hybrid hits; without the sentence model (or with stale book vectors) a 503
    /// `FEATURE_NOT_AVAILABLE` whose message says why and what installs it.
    static func semantic(_ search: () throws -> [ScoredBook]) throws -> [SearchHit] {
        do {
            return try search().map { SearchHit(book: $0.book, score: $0.score) }
        } catch let reason as SemanticUnavailable {
            throw APIError.semanticUnavailable(reason.description)
        }
    }

    /// Free-form matches (title, series and author words; a query that matches nothing corrected
    /// for spelling); the score falls with the rank.
    private func textSearch(_ q: String, limit: Int, offset: Int) throws -> ([SearchHit], Int, String?) {
        let page = try services.catalog.searchTitle(q, limit: offset + limit)
        let hits = page.books.enumerated().dropFirst(offset).prefix(limit).map { index, book in
            SearchHit(book: book, score: 1.0 / (1.0 + Double(index) * 0.1))
        }
        return (Array(hits), page.total, page.correctedQuery)
    }
}
