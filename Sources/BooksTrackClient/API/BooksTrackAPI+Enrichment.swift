import BooksTrackContract
import Foundation
import NIOHTTP1

extension BooksTrackAPI {
    /// `POST /api/v2/books/enrich` — single enrichment. Every attempt carries the same
    /// `idempotency_key` (a fresh UUID unless given), so a retry never does the work twice.
    package func enrich(
        isbn: String,
        provider: EnrichProvider? = nil,
        idempotencyKey: String? = nil
    ) async throws(BooksTrackError) -> APIResponse<EnrichedBook> {
        let parsed: ISBN
        do { parsed = try ISBN(parsing: isbn) } catch {
            throw BooksTrackError(
                code: .invalidISBN,
                kind: .invalidInput,
                message: ErrorCode.invalidISBN.userMessage(),
                detail: "\(isbn): \(error.message)"
            )
        }
        if dialect == .v3 { return try await v3Enrich(parsed) }
        let key = idempotencyKey ?? UUID().uuidString.lowercased()
        let body = EnrichRequest(barcode: parsed.isbn13, preferProvider: provider, idempotencyKey: key)
        var spec = RequestSpec(.POST, APIPath.enrich)
        spec.body = .json(try Self.json(body))
        spec.headers = [HeaderField(name: "Idempotency-Key", value: key)]
        spec.createsWork = true
        spec.hasIdempotencyKey = true
        spec.offering = "enrichment"
        return try await call(EnrichedBook.self, spec)
    }

    /// The batch routes (docs/contract.md §4): both accept both body forms.
    package enum BatchRoute: Sendable, Hashable {
        /// `POST /api/batch-enrich`
        case batchEnrich
        /// `POST /v1/enrichment/batch`
        case v1

        package var path: String {
            switch self {
            case .batchEnrich: return APIPath.batchEnrichmentOld
            case .v1: return APIPath.batchEnrichment
            }
        }
    }

    /// Starts a batch enrichment job with the `{books, jobId}` body. The client makes the job id
    /// (a fresh UUID unless given) and sends the same one on every attempt.
    package func batchEnrich(
        books: [BatchBook],
        jobID: String? = nil,
        route: BatchRoute = .batchEnrich
    ) async throws(BooksTrackError) -> APIResponse<BatchJobAccepted> {
        if dialect == .v3 {
            // v3 enriches by ISBN only (packages/schemas/src/enrich.ts).
            var isbns: [String] = []
            for book in books {
                guard let raw = book.isbn, let isbn = ISBN(raw) else {
                    throw BooksTrackError.invalidInput(
                        "API v3 enriches books by ISBN only; '\(book.title)' has none.",
                        code: .invalidISBN
                    )
                }
                isbns.append(isbn.isbn13)
            }
            return try await v3BatchEnrich(isbns)
        }
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
        route: BatchRoute = .batchEnrich
    ) async throws(BooksTrackError) -> APIResponse<BatchJobAccepted> {
        var normalized: [String] = []
        for raw in isbns {
            do { normalized.append(try ISBN(parsing: raw).isbn13) } catch {
                throw BooksTrackError(
                    code: .invalidISBN,
                    kind: .invalidInput,
                    message: ErrorCode.invalidISBN.userMessage(),
                    detail: "\(raw): \(error.message)"
                )
            }
        }
        if dialect == .v3 { return try await v3BatchEnrich(normalized) }
        let id = jobID ?? UUID().uuidString.lowercased()
        let books = normalized.map { BatchBook(title: "", isbn: $0) }.map(Self.titled)
        return try await startBatch(.books(books, jobId: id), route: route, hasID: true)
    }

    /// A book as every production version accepts it: some refuse a book without a non-empty title
    /// (batch-enrichment.ts, "Invalid title for book at index N"), so an ISBN-only book carries its
    /// ISBN as the title (the stand-in then matches by ISBN only).
    static func titled(_ book: BatchBook) -> BatchBook {
        guard book.title.trimmingCharacters(in: .whitespaces).isEmpty, let isbn = book.isbn, !isbn.isEmpty else {
            return book
        }
        var titled = book
        titled.title = isbn
        return titled
    }

    /// A book's ISBN as ISBN-13 (an ISBN-10 ending in X is refused by every router's `^\d{10}(\d{3})?$`).
    static func thirteen(_ book: BatchBook) -> BatchBook {
        guard let raw = book.isbn, let isbn = ISBN(raw) else { return book }
        var copy = book
        copy.isbn = isbn.isbn13
        if copy.title == raw { copy.title = isbn.isbn13 }
        return copy
    }

    func startBatch(
        _ request: BatchEnrichRequest,
        route: BatchRoute,
        hasID: Bool
    ) async throws(BooksTrackError) -> APIResponse<BatchJobAccepted> {
        // Production advertises `maxBatchSize: 50` (v2/capabilities.ts) while its handler takes 100:
        // the advertised number never refuses less than the documented `JobLimits.maxBatchSize`; the
        // server has the last word.
        let maxItems = max(capabilities?.limits.maxBatchSize ?? JobLimits.maxBatchSize, JobLimits.maxBatchSize)
        if let code = request.sizeError(maxItems: maxItems) {
            throw BooksTrackError.invalidInput(code.userMessage(), code: code)
        }
        var spec = RequestSpec(.POST, route.path)
        spec.body = .json(try Self.json(request))
        spec.createsWork = true
        spec.hasIdempotencyKey = hasID
        spec.notFoundMessage = "This server has no batch enrichment route (\(route.path))."
        let requestedAt = configuration.now()
        let accepted = try await call(BatchJobAccepted.self, spec)
        trackJobToken(accepted.value.jobId, token: accepted.value.authToken, requestedAt: requestedAt)
        return accepted
    }
}
