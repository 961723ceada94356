/// A job pipeline (open set; production has others).
package struct Pipeline: OpenStringEnum {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }

    package static let csvImport: Pipeline = "csv_import"
    package static let batchEnrichment: Pipeline = "batch_enrichment"
    /// v3's AI bookshelf scan (`POST /v3/jobs/scans`).
    package static let bookshelfScan: Pipeline = "bookshelf_scan"

    /// The v3 route segment of this pipeline's jobs: `/v3/jobs/{imports|enrichment|scans}/{id}`
    /// (bendv3 src/api-v3/jobs/*.ts).
    package var v3Segment: String {
        switch self {
        case .batchEnrichment: return "enrichment"
        case .bookshelfScan: return "scans"
        default: return "imports"
        }
    }
}
