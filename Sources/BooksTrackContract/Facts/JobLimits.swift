/// The contract's job limits (docs/contract.md §6): the one home of the CSV import's size and row caps
/// and the batch size. The server's defaults, its capabilities body, the client's and shell's
/// pre-flight checks, the user messages and the help all read them from here.
package enum JobLimits {
    /// Largest CSV file an import accepts: 8 MB (8 × 1024 × 1024 bytes); larger is 413 `FILE_TOO_LARGE`.
    package static let maxCSVBytes = 8 * 1024 * 1024
    /// Most data rows in an imported CSV.
    package static let maxCSVRows = 10_000
    /// Most books in one batch enrichment; more is 400 `BATCH_TOO_LARGE`.
    package static let maxBatchSize = 100

    /// `maxCSVBytes` as people write it: `8 MB`.
    package static var maxCSVSize: String { "\(maxCSVBytes / (1024 * 1024)) MB" }

    /// `maxCSVRows` grouped by thousands: `10,000`.
    package static var maxCSVRowsText: String { grouped(maxCSVRows) }

    /// `10000` → `10,000` (how the limits are written in messages).
    package static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return out
    }
}
