import BooksTrackContract
import Foundation
import NIOHTTP1

extension BooksTrackAPI {
    /// `GET /api/v2/search?q=&mode=&limit=&offset=` — unified v2 search in any mode (`q=similar:<isbn>`
    /// forces similar mode). An empty `results` (production's semantic bug) is a valid "no matches".
    package func searchV2(
        _ query: String,
        mode: SearchMode = .text,
        limit: Int? = nil,
        offset: Int? = nil
    ) async throws(BooksTrackError) -> APIResponse<V2SearchResponse> {
        let q = String(query.prefix(SearchPageLimits.queryLength))
        var items: [(name: String, value: String)] = [("q", q), ("mode", mode.rawValue)]
        if let limit { items.append(("limit", String(limit))) }
        if let offset { items.append(("offset", String(offset))) }
        var spec = RequestSpec(.GET, APIPath.search, query: items)
        spec.notFoundMessage = "No matches."
        spec.offering = mode == .text ? "v2 search" : "\(mode.rawValue) search"
        // API v3 has no semantic or similar mode although /v3/capabilities advertises them: the v2
        // route is asked once, and its route-level 404 is said plainly (never title matches, never "No matches").
        return try await legacyFallback(V2SearchResponse.self, spec)
    }

    /// Natural-language search (`mode=semantic`, 5/min; gated by `semantic_search`).
    package func semantic(
        _ query: String,
        limit: Int? = nil
    ) async throws(BooksTrackError) -> APIResponse<SearchResults> {
        try await searchV2(query, mode: .semantic, limit: limit).map(SearchResults.init)
    }
}
