/// The API's fixed paths, each stated once: the client sends to them, the server routes them, and
/// the budget classifier and the client's cache lifetimes read them (docs/contract.md; bendv3
/// `src/api-v3/index.ts` @ e40ae5d for v3). Paths with an id in them are built where they are used.
package enum APIPath {
    // The seeds' v1 and v2 routes (the stand-in's first dialect).
    package static let health = "/health"
    package static let isbnSearch = "/v1/search/isbn"
    package static let titleSearch = "/v1/search/title"
    package static let authorSearch = "/v1/search/author"
    package static let advancedSearch = "/v1/search/advanced"
    package static let similarSearch = "/v1/search/similar"
    package static let search = "/api/v2/search"
    package static let capabilities = "/api/v2/capabilities"
    package static let weekly = "/api/v2/recommendations/weekly"
    package static let enrich = "/api/v2/books/enrich"
    package static let imports = "/api/v2/imports"
    package static let batchEnrichment = "/v1/enrichment/batch"
    /// The seeds' older name of the batch route, still served.
    package static let batchEnrichmentOld = "/api/batch-enrich"
    package static let bookshelfScan = "/v1/scan/bookshelf"
    package static let tokenRefresh = "/api/token/refresh"

    // API v3.
    package static let v3Capabilities = "/v3/capabilities"
    package static let v3Search = "/v3/books/search"
    package static let v3Enrich = "/v3/books/enrich"
    package static let v3Weekly = "/v3/recommendations/weekly"
    package static let v3Personalized = "/v3/recommendations/personalized"
    package static let v3Imports = "/v3/jobs/imports"
    package static let v3Scans = "/v3/jobs/scans"
}
