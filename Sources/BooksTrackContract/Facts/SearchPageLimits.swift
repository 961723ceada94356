/// A title or author search's page, as every search route (v1, v2 and v3) and the shell take it:
/// `limit` 1–100, 20 when not given, and `offset` 0–10,000 (the contract's search routes; production's
/// v3 schema, packages/schemas/src/search.ts, allows the same limit).
package enum SearchPageLimits {
    package static let limit = 1...100
    package static let defaultLimit = 20
    package static let offset = 0...10_000
    /// The most results a search's pages hold: the last offset a server takes plus a page.
    package static var deepest: Int { offset.upperBound + limit.upperBound }
    /// The longest query a search route takes (the v3 schema: at most 200 characters); the client
    /// cuts a query (`q`, `name`, `title`, `author`) to it before sending.
    package static let queryLength = 200
}

/// How long an ISBN lookup's answer stays good: 7 days (docs/contract.md §8), the server's
/// `Cache-Control` and the client's lifetime when a server sends none.
package enum AnswerLifetimes {
    package static let isbnLookup: Duration = .seconds(7 * 24 * 3600)
}
