import BooksTrackCatalog
import BooksTrackContract
import BooksTrackScanning
import Foundation

extension JobEngine {
    /// Parses the CSV (structural problems fail the job), then matches row after row.
    nonisolated static func runImport(
        engine: JobEngine,
        jobID: String,
        csv: [UInt8],
        catalog: any CatalogQuerying,
        maxRows: Int,
        pacing: Duration?
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
            // A row may take a few catalog searches (a title, its spelling corrected): the thread is
            // given up between rows, so what else runs there (in process, a request's event loop)
            // is never held for the whole file.
            await Task.yield()
            if Task.isCancelled { return }
            let outcome = ImportRowOutcome.evaluate(row, catalog: catalog)
            guard await engine.recordImportRow(jobID, outcome) else { return }
        }
        await engine.complete(jobID)
    }

    /// Enriches item after item from the catalog.
    nonisolated static func runBatch(
        engine: JobEngine,
        jobID: String,
        items: [BatchBook],
        catalog: any CatalogQuerying,
        pacing: Duration?
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

extension JobEngine {
    /// Reads the ISBN barcodes of photo after photo (BarcodeReader: ZBar over the decoded photo) and
    /// looks each ISBN up in the catalog: a known book comes with its title and author
    /// (`enrichmentStatus: success`), an unknown one with its ISBN alone (`not_found`). A photo that
    /// cannot be decoded fails the job (`E_AI_SCAN_FAILED`, naming the photo).
    nonisolated static func runScan(
        engine: JobEngine,
        jobID: String,
        photos: [[UInt8]],
        catalog: any CatalogQuerying,
        pacing: Duration?
    ) async {
        guard await engine.beginProcessing(jobID, totalCount: photos.count) else { return }
        for (index, photo) in photos.enumerated() {
            if let pacing { try? await Task.sleep(for: pacing) }
            if Task.isCancelled { return }
            let found: [FoundBarcode]
            do throws(PhotoDecodingError) {
                found = try BarcodeReader.read(photo: photo)
            } catch {
                let message = "Photo \(index + 1) could not be read: \(error.description)."
                await engine.fail(jobID, JobError(code: .aiScanFailed, message: message, retryable: false))
                return
            }
            let books = found.map { DetectedBook.from($0, photoIndex: index, catalog: catalog) }
            guard await engine.recordScanPhoto(jobID, books) else { return }
        }
        await engine.complete(jobID)
    }
}

extension DetectedBook {
    /// A barcode found in photo `photoIndex`, with the catalog's book when it has one.
    static func from(_ barcode: FoundBarcode, photoIndex: Int, catalog: any CatalogQuerying) -> DetectedBook {
        let box = BoundingBox(x: barcode.box.x, y: barcode.box.y, width: barcode.box.width, height: barcode.box.height)
        let known = (try? catalog.book(isbn13: barcode.isbn)) ?? nil
        return DetectedBook(
            title: known?.title,
            author: known?.authors.first,
            isbn: barcode.isbn,
            confidence: barcode.confidence,
            boundingBox: box,
            enrichmentStatus: known == nil ? "not_found" : "success",
            coverUrl: known?.imageURL,
            publicationYear: known?.year,
            photoIndex: photoIndex
        )
    }
}
