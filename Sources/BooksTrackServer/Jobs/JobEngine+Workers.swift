import BooksTrackCatalog
import BooksTrackContract
import Foundation

extension JobEngine {
    /// Parses the CSV (structural problems fail the job), then matches row after row.
    nonisolated static func runImport(
        engine: JobEngine, jobID: String, csv: [UInt8], catalog: any CatalogQuerying, maxRows: Int, pacing: Duration?
    ) async {
        let table: CSVImportTable
        switch CSVImportParser.parse(csv, maxRows: maxRows) {
        case .failure(let problem):
            await engine.fail(jobID, JobError(code: .csvProcessingFailed, message: problem.message, retryable: false))
            return
        case .success(let parsed):
            table = parsed
        }
        guard await engine.beginProcessing(jobID, totalCount: table.rows.count) else { return }
        for row in table.rows {
            if let pacing { try? await Task.sleep(for: pacing) }
            if Task.isCancelled { return }
            let outcome = ImportRowOutcome.evaluate(row, catalog: catalog)
            guard await engine.recordImportRow(jobID, outcome) else { return }
        }
        await engine.complete(jobID)
    }

    /// Enriches item after item from the catalog.
    nonisolated static func runBatch(
        engine: JobEngine, jobID: String, items: [BatchBook], catalog: any CatalogQuerying, pacing: Duration?
    ) async {
        guard await engine.beginProcessing(jobID, totalCount: items.count) else { return }
        for item in items {
            if let pacing { try? await Task.sleep(for: pacing) }
            if Task.isCancelled { return }
            let result = BatchItemResult.evaluate(item, catalog: catalog)
            guard await engine.recordBatchItem(jobID, result) else { return }
        }
        await engine.complete(jobID)
    }
}
