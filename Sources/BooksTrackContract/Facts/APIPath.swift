/// The API's fixed paths, each stated once: the client sends to them, the server routes them, and
/// the budget classifier and the client's cache lifetimes read them (docs/contract.md; bendv3
/// `src/api-v3/index.ts` @ e40ae5d for v3). Paths with an id in them are built where they are used.
public enum APIPath {
    // The seeds' v1 and v2 routes (the stand-in's first dialect).
    public static let health = "/health"
    public static let isbnSearch = "/v1/search/isbn"
    public static let titleSearch = "/v1/search/title"
    public static let authorSearch = "/v1/search/author"
    public static let advancedSearch = "/v1/search/advanced"
    public static let similarSearch = "/v1/search/similar"
    public static let search = "/api/v2/search"
    public static let capabilities = "/api/v2/capabilities"
    public static let weekly = "/api/v2/recommendations/weekly"
    public static let enrich = "/api/v2/books/enrich"
    public static let imports = "/api/v2/imports"
    public static let batchEnrichment = "/v1/enrichment/batch"
    /// The seeds' older name of the batch route, still served.
    public static let batchEnrichmentOld = "/api/batch-enrich"
    public static let bookshelfScan = "/v1/scan/bookshelf"
    public static let tokenRefresh = "/api/token/refresh"

    // API v3.
    public static let v3Capabilities = "/v3/capabilities"
    public static let v3Search = "/v3/books/search"
    public static let v3Enrich = "/v3/books/enrich"
    public static let v3Weekly = "/v3/recommendations/weekly"
    public static let v3Personalized = "/v3/recommendations/personalized"
    public static let v3Imports = "/v3/jobs/imports"
    public static let v3Scans = "/v3/jobs/scans"
}
