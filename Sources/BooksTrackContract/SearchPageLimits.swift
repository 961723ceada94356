/// A title or author search's page, as every search route (v1, v2 and v3) and the shell take it:
/// `limit` 1–100, 20 when not given, and `offset` 0–10,000 (the contract's search routes; production's
/// v3 schema, packages/schemas/src/search.ts, allows the same limit).
public enum SearchPageLimits {
    public static let limit = 1...100
    public static let defaultLimit = 20
    public static let offset = 0...10_000
}
