import Foundation

/// A switchable feature of the local server, as named in the capabilities response (CONTRACT.md §4).
public enum ServerFeature: String, CaseIterable, Sendable, Hashable, Codable {
    case semanticSearch = "semantic_search"
    case similarBooks = "similar_books"
    case weeklyRecommendations = "weekly_recommendations"
    case csvImport = "csv_import"
    case batchEnrichment = "batch_enrichment"
    case sseProgress = "sse_progress"
    case jobCancellation = "job_cancellation"
    /// Bookshelf scans: ISBN barcodes read from photos (`POST /v3/jobs/scans`, `POST /v1/scan/bookshelf`).
    case bookshelfScan = "bookshelf_scan"

    /// Accepts the wire name (`semantic_search`), a dashed form (`semantic-search`) or a short alias.
    public init?(name: String) {
        let normalized = name.lowercased().replacingOccurrences(of: "-", with: "_")
        if let feature = ServerFeature(rawValue: normalized) {
            self = feature
            return
        }
        switch normalized {
        case "semantic": self = .semanticSearch
        case "similar": self = .similarBooks
        case "weekly", "recommendations": self = .weeklyRecommendations
        case "import", "imports": self = .csvImport
        case "batch": self = .batchEnrichment
        case "sse": self = .sseProgress
        case "cancel", "cancellation": self = .jobCancellation
        case "scan", "scans": self = .bookshelfScan
        default: return nil
        }
    }
}
