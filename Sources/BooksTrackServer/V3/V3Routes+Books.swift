import BooksTrackCatalog
import BooksTrackContract
import BooksTrackSupport
import Foundation
import HTTPTypes
import Hummingbird

/// A looked-up v3 book, encoded once (sorted keys), with its ETag.
struct V3EncodedBook: Sendable {
    let bytes: ByteBuffer
    let etag: String
}

/// The v3 book routes (bendv3 `src/api-v3/index.ts` @ e40ae5d).
extension V3Handlers {
    static let isbnMessage = "Must be ISBN-10 or ISBN-13"
    /// V3_MAX_SEARCH_RESULTS: matches are capped before paging.
    static let maxSearchResults = 100
    static let maxSyncISBNs = V3Limits.syncEnrich
    static let maxAsyncISBNs = V3Limits.asyncEnrich

    // MARK: GET /v3/books/{isbn}

    /// `{success, data: Book, metadata: {timestamp, requestId, source, cached, processingTime}, _links: {self, enrich}}`
    /// with `ETag: "<isbn>-<16 hex of the SHA-256 of the book JSON>"` and `Cache-Control: public, max-age=3600`;
    /// `If-None-Match` equal to the ETag is a 304 without a body. The encoded book and its ETag are kept
    /// in the response cache (as the v1 ISBN route keeps its result), so a repeated lookup only writes
    /// the envelope around stored bytes (`metadata.cached: true`).
    func book(_ request: Request, isbn raw: String) throws -> Response {
        let started = ContinuousClock.now
        guard V3Wire.isISBNPattern(raw) else {
            throw V3Problem.validation(field: "isbn", Self.isbnMessage, code: "invalid_string")
        }
        let now = services.now()
        let key = "v3book:\(dialect.rawValue):\(raw)"
        let entry: V3EncodedBook
        let hit: Bool
        if let stored = services.responseCache.value(V3EncodedBook.self, for: key, now: now) {
            (entry, hit) = (stored, true)
        } else {
            guard let book = try services.catalog.book(isbn13: V3Wire.isbn13(raw)) else {
                throw V3Problem.notFound("Book not found")
            }
            let data = try JSONCoding.encoder(sortedKeys: true).encode(V3Book(catalog: book).json(dialect))
            entry = V3EncodedBook(
                bytes: ByteBuffer(bytes: data),
                etag: "\"\(raw)-\(SHA256Digest.hex(Array(data)).prefix(16))\""
            )
            services.responseCache.store(entry, for: key, ttl: SearchRoutes.isbnTTL, now: now)
            hit = false
        }
        var headers: HTTPFields = [.eTag: entry.etag, .cacheControl: "public, max-age=3600"]
        if request.headers[.ifNoneMatch] == entry.etag {
            // Production answers `c.body(null, 304)` before setting its headers.
            return Response(status: .notModified, headers: dialect == .production ? [:] : headers)
        }
        headers[.contentType] = "application/json"
        var body = ByteBuffer()
        body.reserveCapacity(entry.bytes.readableBytes + 400)
        body.writeStaticString(#"{"success":true,"data":"#)
        body.writeImmutableBuffer(entry.bytes)
        body.writeStaticString(#","metadata":{"timestamp":"#)
        JSONText.writeString(ISO8601.string(from: now), to: &body)
        body.writeStaticString(#","requestId":"#)
        JSONText.writeString(V3Wire.requestID(), to: &body)
        body.writeStaticString(
            hit ? #","source":"alexandria","cached":true"# : #","source":"alexandria","cached":false"#
        )
        body.writeString(#","processingTime":\#(started.elapsedMilliseconds)},"_links":{"self":{"href":"#)
        JSONText.writeString("/v3/books/\(raw)", to: &body)
        body.writeStaticString(
            #","rel":"self","method":"GET"},"enrich":{"href":"/v3/books/enrich","rel":"related","method":"POST"}}}"#
        )
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    // MARK: GET /v3/books/search

    /// `?q=` (1–200 characters) `&mode=text&page=` (≥ 1) `&limit=` (1–100): title matches capped at 100,
    /// then paged by `page`. An `offset` parameter is ignored, yet `_links.next`/`prev` carry one
    /// (`offset=<offset ± limit>`, no `page`): production's links lead back to page 1. Reproduced in
    /// both dialects: it is the real wire.
    func search(_ request: Request) throws -> Response {
        let started = ContinuousClock.now
        let query = V3Query(request)
        guard let q = query.parameters.string("q") else {
            throw V3Problem.validation(field: "q", "Required", code: "invalid_type")
        }
        guard q.count <= SearchPageLimits.queryLength else {
            throw V3Problem.validation(
                field: "q",
                "String must contain at most \(SearchPageLimits.queryLength) character(s)",
                code: "too_big"
            )
        }
        // The schema's modes are text, semantic and similar, and production answers every mode with the
        // title search, echoing the mode (index.ts @ e40ae5d never reads it). The stand-in refuses the
        // modes it does not serve; the production dialect reproduces the title matches.
        let mode = query.parameters.string("mode") ?? "text"
        let modes = dialect == .production ? ["text", "semantic", "similar"] : ["text"]
        guard modes.contains(mode) else {
            let expected = modes.map { "'\($0)'" }.joined(separator: " | ")
            throw V3Problem.validation(
                field: "mode",
                "Invalid enum value. Expected \(expected), received '\(mode.prefix(40))'",
                code: "invalid_enum_value"
            )
        }
        let page = try query.int("page", default: 1, range: 1...10_000)
        let limit = try query.int("limit", default: SearchPageLimits.defaultLimit, range: SearchPageLimits.limit)
        let offset = (page - 1) * limit
        let found = try services.catalog.searchTitle(q, limit: Self.maxSearchResults)
        // Books without an ISBN are left out after the cap, as production filters its page of works.
        let capped = found.books.prefix(Self.maxSearchResults).filter { $0.isbn13 != nil || $0.isbn10 != nil }
        let results = capped.dropFirst(offset).prefix(limit).map { V3Book(catalog: $0).json(dialect) }
        var fields: [String: JSONValue] = [
            "results": .array(Array(results)), "totalCount": .number(Double(capped.count)),
            "query": [
                "q": .string(q), "mode": .string(mode), "limit": .number(Double(limit)),
                "offset": .number(Double(offset)),
            ],
        ]
        // A query that matched nothing was searched with its spelling corrected: the answer says so.
        if let corrected = found.correctedQuery { fields["correctedQuery"] = .string(corrected) }
        let data = JSONValue.object(fields)
        var links: JSONValue?
        if !capped.isEmpty {
            func href(offset: Int) -> String {
                let encoded = q.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? q
                return "/v3/books/search?q=\(encoded)&mode=\(mode)&limit=\(limit)&offset=\(offset)"
            }
            var object: [String: JSONValue] = ["self": V3Wire.link(href(offset: offset))]
            if offset + limit < capped.count { object["next"] = V3Wire.link(href(offset: offset + limit), rel: "next") }
            if offset > 0 { object["prev"] = V3Wire.link(href(offset: max(0, offset - limit)), rel: "prev") }
            links = .object(object)
        }
        return V3Wire.success(
            data,
            now: services.now(),
            metadata: ["cached": false, "processingTime": .number(Double(started.elapsedMilliseconds))],
            links: links,
            extraTop: ["error": .null]
        )
    }

    // MARK: POST /v3/books/enrich

    /// `{isbns|barcodes: [...], includeEmbedding?, async?}`: 1–500 ISBNs of `^\d{10}(\d{3})?$`, at most
    /// 50 without `async` (bendv3 `packages/schemas/src/enrich.ts`). Sync: `{books, requested, found,
    /// notFound}` (none found: 404 problem); async: 202 with a job on the engine (`enrichment` pipeline).
    func enrich(_ request: Request, owner: String) async throws -> Response {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: services.configuration.maxJSONBodyBytes)
        } catch {
            throw V3Problem(.invalidRequest, "The request body is too large", status: 413)
        }
        let (isbns, isAsync) = try Self.parseEnrich(Data(buffer.readableBytesView))
        if isAsync {
            let source = try requireEngine()
            try services.require(.batchEnrichment)
            let items = isbns.map { BatchBook(title: "", isbn: V3Wire.isbn13($0)) }
            let engine = try source.engine()
            let record: JobRecord
            do throws(JobEngine.SubmissionError) {
                record = try await engine.submitBatch(items: items, clientJobID: nil, owner: owner).record
            } catch {
                throw Self.problem(error)
            }
            return accepted(record, pipeline: .enrichment, request: request)
        }
        var books: [JSONValue] = []
        var notFound: [String] = []
        for isbn in isbns {
            if let book = try services.catalog.book(isbn13: V3Wire.isbn13(isbn)) {
                books.append(V3Book(catalog: book).json(dialect, enriched: true))
            } else {
                notFound.append(isbn)
            }
        }
        guard !books.isEmpty else { throw V3Problem.notFound("No books found for provided ISBNs") }
        let data: JSONValue = [
            "books": .array(books), "requested": .number(Double(isbns.count)), "found": .number(Double(books.count)),
            "notFound": .array(notFound.map(JSONValue.string)),
        ]
        return V3Wire.success(data, now: services.now())
    }

    /// The ISBNs and `async` of an enrich body, or the validation problem. Pure.
    static func parseEnrich(_ data: Data) throws -> (isbns: [String], async: Bool) {
        guard let body = try? JSONCoding.decoder().decode(JSONValue.self, from: data), let object = body.objectValue
        else {
            throw V3Problem.validation(field: "", "Expected object, received string", code: "invalid_type")
        }
        let field = object["isbns"] != nil ? "isbns" : "barcodes"
        guard let list = object[field]?.arrayValue else {
            throw V3Problem.validation(field: "isbns", "Required", code: "invalid_type")
        }
        var errors: [V3FieldError] = []
        if list.isEmpty {
            errors.append(
                V3FieldError(field: field, message: "Array must contain at least 1 element(s)", code: "too_small")
            )
        }
        if list.count > maxAsyncISBNs {
            errors.append(
                V3FieldError(
                    field: field,
                    message: "Array must contain at most \(maxAsyncISBNs) element(s)",
                    code: "too_big"
                )
            )
        }
        var isbns: [String] = []
        for (index, item) in list.enumerated() {
            guard let text = item.stringValue, V3Wire.isISBNPattern(text) else {
                errors.append(V3FieldError(field: "\(field).\(index)", message: isbnMessage, code: "invalid_string"))
                continue
            }
            isbns.append(text)
        }
        let isAsync = object["async"]?.boolValue ?? false
        if !isAsync, list.count > maxSyncISBNs {
            errors.append(
                V3FieldError(
                    field: field,
                    message: "Sync mode limited to 50 ISBNs. Use async=true for batches >50 (up to 500 ISBNs)",
                    code: "custom"
                )
            )
        }
        guard errors.isEmpty else { throw V3Problem.validation(errors) }
        return (isbns, isAsync)
    }
}
