import BooksTrackCatalog
import BooksTrackContract
import Foundation
import Hummingbird

/// `POST /api/v2/books/enrich` with a JSON body `{barcode|isbn, prefer_provider?, idempotency_key?}`.
/// The body is read with the configured bound (413 above it). A repeated `idempotency_key` within the
/// window returns the first result, without a new lookup, marked `X-Idempotent-Replay: true` and
/// `metadata.cached: true`.
struct EnrichRoute {
    let services: ServerServices

    static let maxIdempotencyKeyLength = 255

    func respond(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let started = ContinuousClock.now
        if let type = request.headers[.contentType]?.lowercased(), !type.contains("json") {
            throw APIError(
                .invalidRequest,
                "The body must be JSON (Content-Type: application/json), got '\(type.prefix(60))'"
            )
        }
        var request = request
        let buffer = try await request.collectBody(upTo: services.configuration.maxJSONBodyBytes)
        let body = try Self.decode(Data(buffer.readableBytesView))
        let isbn = try QueryParameters.parseISBN(body.barcode)

        let now = services.now()
        var headers = HTTPFields()
        if let key = body.idempotencyKey {
            guard !key.isEmpty, key.count <= Self.maxIdempotencyKeyLength else {
                throw APIError.invalidParameter(
                    "idempotency_key",
                    "'idempotency_key' must have 1 to \(Self.maxIdempotencyKeyLength) characters"
                )
            }
            if let record = services.idempotency.record(for: key, now: now) {
                return try replay(record, key: key, isbn: isbn, started: started, now: now)
            }
            let result = try enrich(isbn, now: now)
            let record = services.idempotency.storeIfAbsent(key: key, fingerprint: isbn.isbn13, value: result, now: now)
            if let first = record.value as? EnrichedBook, first != result {
                return try replay(record, key: key, isbn: isbn, started: started, now: now)
            }
            headers[.xIdempotentReplay] = "false"
            return try JSONResponse.envelope(
                result,
                metadata: metadata(started: started, now: now, cached: false),
                headers: headers
            )
        }
        let result = try enrich(isbn, now: now)
        return try JSONResponse.envelope(result, metadata: metadata(started: started, now: now, cached: false))
    }

    private func replay(
        _ record: IdempotencyStore.Record,
        key: String,
        isbn: ISBN,
        started: ContinuousClock.Instant,
        now: Date
    ) throws -> Response {
        guard record.fingerprint == isbn.isbn13, let first = record.value as? EnrichedBook else {
            throw APIError.invalidParameter(
                "idempotency_key",
                "'idempotency_key' \(key.prefix(60)) was already used for another book"
            )
        }
        var headers = HTTPFields()
        headers[.xIdempotentReplay] = "true"
        return try JSONResponse.envelope(
            first,
            metadata: metadata(started: started, now: now, cached: true),
            headers: headers
        )
    }

    private func metadata(started: ContinuousClock.Instant, now: Date, cached: Bool) -> ResponseMetadata {
        ResponseMetadata(
            date: now,
            processingTime: started.elapsedMilliseconds,
            provider: localProvider,
            cached: cached,
            source: "goodbooks-10k"
        )
    }

    /// The catalog lookup: 404 when the book is not there.
    private func enrich(_ isbn: ISBN, now: Date) throws -> EnrichedBook {
        guard let book = try services.catalog.book(isbn13: isbn.isbn13) else {
            throw APIError.bookNotFound(isbn.value)
        }
        let vectorized = (try? services.catalog.similar(isbn13: isbn.isbn13, limit: 1)) != nil
        return EnrichedBook(
            isbn: book.isbn13 ?? isbn.isbn13,
            title: book.title,
            authors: book.authors,
            publishedDate: book.publicationYearString,
            coverUrl: book.imageURL,
            provider: localProvider,
            enrichedAt: ISO8601.string(from: now),
            vectorized: vectorized
        )
    }

    /// Decodes the body with clear 400 messages for empty, non-JSON and incomplete bodies.
    static func decode(_ data: Data) throws -> EnrichRequest {
        guard !data.isEmpty else {
            throw APIError(.invalidRequest, "The request body is empty; send JSON {\"barcode\": \"<isbn>\"}")
        }
        let decoder = JSONCoding.decoder()
        let json: JSONValue
        do {
            json = try decoder.decode(JSONValue.self, from: data)
        } catch {
            throw APIError(.invalidRequest, "The request body is not valid JSON")
        }
        guard case .object = json else {
            throw APIError(.invalidRequest, "The request body must be a JSON object such as {\"barcode\": \"<isbn>\"}")
        }
        do {
            return try decoder.decode(EnrichRequest.self, from: data)
        } catch DecodingError.keyNotFound {
            throw APIError(
                .invalidRequest,
                "The request body needs 'barcode' (or 'isbn')",
                details: ["parameter": .string("barcode")]
            )
        } catch {
            throw APIError(
                .invalidRequest,
                "The request body is not a valid enrich request: 'barcode' (or 'isbn') must be a string and "
                    + "'prefer_provider' one of auto, google_books, openlibrary, isbndb"
            )
        }
    }
}
