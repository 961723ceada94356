/// A job pipeline (open set; production has others).
public struct Pipeline: OpenStringEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let csvImport: Pipeline = "csv_import"
    public static let batchEnrichment: Pipeline = "batch_enrichment"
    /// v3's AI bookshelf scan (`POST /v3/jobs/scans`).
    public static let bookshelfScan: Pipeline = "bookshelf_scan"

    /// The v3 route segment of this pipeline's jobs: `/v3/jobs/{imports|enrichment|scans}/{id}`
    /// (bendv3 src/api-v3/jobs/*.ts).
    public var v3Segment: String {
        switch self {
        case .batchEnrichment: return "enrichment"
        case .bookshelfScan: return "scans"
        default: return "imports"
        }
    }
}
