import BooksTrackContract
import Foundation
import NIOHTTP1

extension BooksTrackAPI {
    /// `GET /v1/search/isbn?isbn=` — the ISBN is checked locally first (checksum); cached per `cachePolicy`.
    package func searchISBN(_ isbn: String) async throws(BooksTrackError) -> APIResponse<SearchResults> {
        let parsed: ISBN
        do { parsed = try ISBN(parsing: isbn) } catch {
            throw BooksTrackError(
                code: .invalidISBN,
                kind: .invalidInput,
                message: ErrorCode.invalidISBN.userMessage(),
                detail: "\(isbn): \(error.message)"
            )
        }
        if dialect == .v3 { return try await v3LookUp(parsed) }
        // ISBN-13 on every route: no version's router takes an ISBN-10 ending in X (`^\d{10}(\d{3})?$`).
        var spec = RequestSpec(.GET, APIPath.isbnSearch, query: [("isbn", parsed.isbn13)])
        spec.cacheTTL = AnswerLifetimes.isbnLookup
        spec.offering = "ISBN lookup"
        return try await call(SearchResults.self, spec)
    }

    /// `GET /v1/search/title?q=&limit=&offset=` (limit 1–100; production ignores it; `offset`, the
    /// rows to skip, is a stand-in extension: sent only when not 0).
    package func searchTitle(
        _ query: String,
        limit: Int? = nil,
        offset: Int = 0
    ) async throws(BooksTrackError) -> APIResponse<SearchResults> {
        if dialect == .v3 { return try await v3SearchTitle(query, limit: limit, offset: offset) }
        var items: [(name: String, value: String)] = [("q", String(query.prefix(SearchPageLimits.queryLength)))]
        if let limit { items.append(("limit", String(limit))) }
        if offset > 0 { items.append(("offset", String(offset))) }
        var spec = RequestSpec(.GET, APIPath.titleSearch, query: items)
        spec.offering = "title search"
        return try await call(SearchResults.self, spec)
    }

    /// `GET /v1/search/author?name=&limit=`; when the server does not route it (production answers 404),
    /// falls back to `/v1/search/advanced?author=` and remembers that for the session.
    package func searchAuthor(
        _ name: String,
        limit: Int? = nil,
        offset: Int = 0
    ) async throws(BooksTrackError) -> APIResponse<SearchResults> {
        if authorRouteMissing { return try await searchAdvanced(title: nil, author: name, limit: limit) }
        var items: [(name: String, value: String)] = [("name", String(name.prefix(SearchPageLimits.queryLength)))]
        if let limit { items.append(("limit", String(limit))) }
        if offset > 0 { items.append(("offset", String(offset))) }
        var spec = RequestSpec(.GET, APIPath.authorSearch, query: items)
        spec.notFoundMessage = "No author search on this server."
        spec.offering = "author search"
        if dialect == .v3 {
            // v3 has no author search; a server that still routes v1 may have only the advanced route
            // (production's v1 never had /v1/search/author).
            do {
                return try await legacyFallback(SearchResults.self, spec)
            } catch  where error.code == .routeNotOffered {
                var advanced = RequestSpec(
                    .GET,
                    APIPath.advancedSearch,
                    query: [("author", String(name.prefix(SearchPageLimits.queryLength)))]
                        + (limit.map { [("limit", String($0))] } ?? [])
                )
                advanced.offering = "author search"
                return try await legacyFallback(SearchResults.self, advanced)
            }
        }
        do {
            return try await call(SearchResults.self, spec)
        } catch  where error.httpStatus == 404 {
            authorRouteMissing = true
            return try await searchAdvanced(title: nil, author: name, limit: limit)
        }
    }

    /// `GET /v1/search/advanced?title=&author=` (at least one required).
    package func searchAdvanced(
        title: String?,
        author: String?,
        limit: Int? = nil
    ) async throws(BooksTrackError) -> APIResponse<SearchResults> {
        var items: [(name: String, value: String)] = []
        if let title, !title.isEmpty { items.append(("title", String(title.prefix(SearchPageLimits.queryLength)))) }
        if let author, !author.isEmpty { items.append(("author", String(author.prefix(SearchPageLimits.queryLength)))) }
        guard !items.isEmpty else {
            throw BooksTrackError.invalidInput("Give a title, an author, or both.", code: .missingParameter)
        }
        if let limit { items.append(("limit", String(limit))) }
        var spec = RequestSpec(.GET, APIPath.advancedSearch, query: items)
        spec.offering = "advanced search"
        return try await legacyFallback(SearchResults.self, spec)
    }

    /// Whether author search falls back to the advanced route on this backend (learned from a 404).
    package var usesAuthorFallback: Bool { authorRouteMissing }
}
