import BooksTrackContract
import Foundation

extension BooksTrackAPI {
    /// `POST /api/v2/books/enrich` — single enrichment. Every attempt carries the same
    /// `idempotency_key` (a fresh UUID unless given), so a retry never does the work twice.
    public func enrich(
        isbn: String, provider: EnrichProvider? = nil, idempotencyKey: String? = nil
    ) async throws(BooksTrackError) -> APIResponse<EnrichedBook> {
        let parsed: ISBN
        do { parsed = try ISBN(parsing: isbn) } catch {
            throw BooksTrackError(
                code: .invalidISBN, kind: .invalidInput, message: ErrorCode.invalidISBN.userMessage(),
                detail: "\(isbn): \(error.message)")
        }
        let key = idempotencyKey ?? UUID().uuidString.lowercased()
        let body = EnrichRequest(barcode: parsed.value, preferProvider: provider, idempotencyKey: key)
        var spec = RequestSpec(.POST, "/api/v2/books/enrich", rateLimitClass: .enrich)
        spec.body = .json(try Self.json(body))
        spec.headers = [HeaderField(name: "Idempotency-Key", value: key)]
        spec.createsWork = true
        spec.hasIdempotencyKey = true
        return try await call(EnrichedBook.self, spec)
    }

    /// The batch routes (CONTRACT.md §4): both accept both body forms.
    public enum BatchRoute: String, Sendable, Hashable {
        /// `POST /api/batch-enrich`
        case batchEnrich = "/api/batch-enrich"
        /// `POST /v1/enrichment/batch`
        case v1 = "/v1/enrichment/batch"
    }

    /// Starts a batch enrichment job with the `{books, jobId}` body. The client makes the job id
    /// (a fresh UUID unless given) and sends the same one on every attempt.
    public func batchEnrich(
        books: [BatchBook], jobID: String? = nil, route: BatchRoute = .batchEnrich
    ) async throws(BooksTrackError) -> APIResponse<BatchJobAccepted> {
        let id = jobID ?? UUID().uuidString.lowercased()
        let request = BatchEnrichRequest.books(books, jobId: id)
        return try await startBatch(request, route: route, hasID: true)
    }

    /// Starts a batch enrichment job with the `{barcodes}` body (the server makes the job id, so a
    /// failed attempt is not repeated unless the connection was never made).
    public func batchEnrich(
        isbns: [String], route: BatchRoute = .batchEnrich
    ) async throws(BooksTrackError) -> APIResponse<BatchJobAccepted> {
        var normalized: [String] = []
        for raw in isbns {
            do { normalized.append(try ISBN(parsing: raw).value) } catch {
                throw BooksTrackError(
                    code: .invalidISBN, kind: .invalidInput, message: ErrorCode.invalidISBN.userMessage(),
                    detail: "\(raw): \(error.message)")
            }
        }
        return try await startBatch(.barcodes(normalized), route: route, hasID: false)
    }

    func startBatch(
        _ request: BatchEnrichRequest, route: BatchRoute, hasID: Bool
    ) async throws(BooksTrackError) -> APIResponse<BatchJobAccepted> {
        let maxItems = capabilities?.limits.maxBatchSize ?? 100
        if let code = request.sizeError(maxItems: maxItems) {
            throw BooksTrackError.invalidInput(code.userMessage(), code: code)
        }
        var spec = RequestSpec(.POST, route.rawValue, rateLimitClass: .batch)
        spec.body = .json(try Self.json(request))
        spec.createsWork = true
        spec.hasIdempotencyKey = hasID
        spec.notFoundMessage = "This server has no batch enrichment route (\(route.rawValue))."
        let requestedAt = configuration.now()
        let accepted = try await call(BatchJobAccepted.self, spec)
        trackJobToken(accepted.value.jobId, token: accepted.value.authToken, requestedAt: requestedAt)
        return accepted
    }
}
