import BooksTrackContract
import Foundation
import NIOHTTP1

/// Starts jobs and one-off enrichments for a ``BooksTrackAPI`` (``BooksTrackAPI/launcher``): checks
/// what is sent before anything is (ISBNs, batch sizes, photos, the CSV), builds the request, and
/// hands the started job to the client (its tokens, its pipeline). Enrichment lives here, scans in
/// `JobLauncher+Scan`, CSV imports in `JobLauncher+Import`.
///
/// The client answers what is the connection's: the dialect, the capabilities, the call pipeline,
/// and the job tokens it keeps.
package struct JobLauncher: Sendable {
    /// The client whose call pipeline, dialect and job tokens a start uses.
    let client: BooksTrackAPI
    /// The client's settings: deadlines and the clock.
    let configuration: APIConfiguration

    /// `POST /api/v2/books/enrich` — single enrichment. Every attempt carries the same
    /// `idempotency_key` (a fresh UUID unless given), so a retry never does the work twice.
    package func enrich(
        isbn: String,
        provider: EnrichProvider? = nil,
        idempotencyKey: String? = nil
    ) async throws(BooksTrackError) -> APIResponse<EnrichedBook> {
        let parsed = try Self.parsedISBN(isbn)
        if await client.dialect == .v3 { return try await client.v3Enrich(parsed) }
        let key = idempotencyKey ?? UUID().uuidString.lowercased()
        let body = EnrichRequest(barcode: parsed.isbn13, preferProvider: provider, idempotencyKey: key)
        var spec = RequestSpec(.POST, APIPath.enrich)
        spec.body = .json(try BooksTrackAPI.json(body))
        spec.headers = [HeaderField(name: "Idempotency-Key", value: key)]
        spec.createsWork = true
        spec.hasIdempotencyKey = true
        spec.offering = "enrichment"
        return try await client.call(EnrichedBook.self, spec)
    }

    /// Starts a batch enrichment job with the `{books, jobId}` body. The client makes the job id
    /// (a fresh UUID unless given) and sends the same one on every attempt.
    package func batchEnrich(
        books: [BatchBook],
        jobID: String? = nil,
        route: BooksTrackAPI.BatchRoute = .batchEnrich
    ) async throws(BooksTrackError) -> APIResponse<BatchJobAccepted> {
        if await client.dialect == .v3 { return try await client.v3BatchEnrich(try Self.v3ISBNs(books)) }
        let id = jobID ?? UUID().uuidString.lowercased()
        let request = BatchEnrichRequest.books(books.map(Self.titled).map(Self.thirteen), jobId: id)
        return try await startBatch(request, route: route, hasID: true)
    }

    /// Starts a batch enrichment job for ISBNs. Sent as the `{books, jobId}` form every production
    /// version accepts (batch-enrichment.ts refuses `{barcodes}` with "Invalid books array", a missing
    /// `jobId`, and a book without a non-empty title): each book carries its ISBN, and the ISBN again
    /// as its title. The client makes the job id, so every attempt carries the same one.
    package func batchEnrich(
        isbns: [String],
        jobID: String? = nil,
        route: BooksTrackAPI.BatchRoute = .batchEnrich
    ) async throws(BooksTrackError) -> APIResponse<BatchJobAccepted> {
        let normalized = try Self.isbn13s(isbns)
        if await client.dialect == .v3 { return try await client.v3BatchEnrich(normalized) }
        let id = jobID ?? UUID().uuidString.lowercased()
        let books = normalized.map { BatchBook(title: "", isbn: $0) }.map(Self.titled)
        return try await startBatch(.books(books, jobId: id), route: route, hasID: true)
    }

    func startBatch(
        _ request: BatchEnrichRequest,
        route: BooksTrackAPI.BatchRoute,
        hasID: Bool
    ) async throws(BooksTrackError) -> APIResponse<BatchJobAccepted> {
        let limits = await client.capabilities?.limits
        if let code = request.sizeError(maxItems: Self.maxBatchItems(advertised: limits?.maxBatchSize)) {
            throw BooksTrackError.invalidInput(code.userMessage(), code: code)
        }
        var spec = RequestSpec(.POST, route.path)
        spec.body = .json(try BooksTrackAPI.json(request))
        spec.createsWork = true
        spec.hasIdempotencyKey = hasID
        spec.notFoundMessage = "This server has no batch enrichment route (\(route.path))."
        let requestedAt = configuration.now()
        let accepted = try await client.call(BatchJobAccepted.self, spec)
        await client.trackJobToken(accepted.value.jobId, token: accepted.value.authToken, requestedAt: requestedAt)
        return accepted
    }
}
