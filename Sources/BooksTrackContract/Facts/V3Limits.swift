/// The v3 routes' request limits, as production's schemas state them (bendv3 @ e40ae5d); the server
/// enforces them and the client stays inside them.
package enum V3Limits {
    /// `limit` of the recommendation routes: 1–20 (`z.coerce.number().int().min(1).max(20)`).
    package static let recommendations = 1...20
    /// `limit` of `GET /v3/books/search`: every search route's (packages/schemas/src/search.ts).
    package static var searchPage: ClosedRange<Int> { SearchPageLimits.limit }
    /// ISBNs of one sync `POST /v3/books/enrich` (the schema's refine: "Sync mode limited to 50 ISBNs").
    package static let syncEnrich = 50
    /// ISBNs of one async enrichment job (the schema's `.max(500)`).
    package static let asyncEnrich = 500
}
