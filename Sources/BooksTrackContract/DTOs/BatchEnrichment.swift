import Foundation

/// One book of a batch enrichment request.
package struct BatchBook: Codable, Sendable, Hashable {
    package var title: String
    package var author: String?
    package var isbn: String?

    package init(title: String, author: String? = nil, isbn: String? = nil) {
        self.title = title
        self.author = author
        self.isbn = isbn
    }
}

/// Body of `POST /api/batch-enrich` and `POST /v1/enrichment/batch`: either
/// `{books: [{title, author?, isbn?}], jobId}` (the client makes the job id) or `{barcodes: [isbn]}`.
package struct BatchEnrichRequest: Codable, Sendable, Hashable {
    package var books: [BatchBook]?
    package var jobId: String?
    package var barcodes: [String]?

    package init(books: [BatchBook]? = nil, jobId: String? = nil, barcodes: [String]? = nil) {
        self.books = books
        self.jobId = jobId
        self.barcodes = barcodes
    }

    /// The books form.
    package static func books(_ books: [BatchBook], jobId: String) -> BatchEnrichRequest {
        BatchEnrichRequest(books: books, jobId: jobId)
    }

    /// The barcodes form.
    package static func barcodes(_ isbns: [String]) -> BatchEnrichRequest {
        BatchEnrichRequest(barcodes: isbns)
    }

    /// Every item as a `BatchBook` (barcodes become books with an ISBN and an empty title).
    package var items: [BatchBook] {
        (books ?? []) + (barcodes ?? []).map { BatchBook(title: "", isbn: $0) }
    }

    /// `EMPTY_BATCH` / `BATCH_TOO_LARGE` when the item count is outside 1…`maxItems`, else nil.
    package func sizeError(maxItems: Int = 100) -> ErrorCode? {
        let n = items.count
        if n == 0 { return .emptyBatch }
        if n > maxItems { return .batchTooLarge }
        return nil
    }
}

/// `data` of the 202 answering a batch enrichment request.
package struct BatchJobAccepted: Codable, Sendable, Hashable {
    package var jobId: String
    /// Bearer token for cancel (and the WebSocket).
    package var authToken: String
    /// The same token under production's older name.
    package var token: String
    package var totalCount: Int
    package var processedCount: Int
    package var sseUrl: String?
    package var statusUrl: String?

    package init(
        jobId: String,
        authToken: String,
        token: String? = nil,
        totalCount: Int,
        processedCount: Int = 0,
        sseUrl: String? = nil,
        statusUrl: String? = nil
    ) {
        self.jobId = jobId
        self.authToken = authToken
        self.token = token ?? authToken
        self.totalCount = totalCount
        self.processedCount = processedCount
        self.sseUrl = sseUrl
        self.statusUrl = statusUrl
    }

    enum CodingKeys: String, CodingKey { case jobId, authToken, token, totalCount, processedCount, sseUrl, statusUrl }

    /// Lenient: either token name alone is enough; missing counts are 0.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        jobId = try c.decode(String.self, forKey: .jobId)
        let auth = try c.decodeIfPresent(String.self, forKey: .authToken)
        let tok = try c.decodeIfPresent(String.self, forKey: .token)
        authToken = auth ?? tok ?? ""
        token = tok ?? auth ?? ""
        totalCount = try c.decodeLenientInt(forKey: .totalCount) ?? 0
        processedCount = try c.decodeLenientInt(forKey: .processedCount) ?? 0
        sseUrl = try c.decodeIfPresent(String.self, forKey: .sseUrl)
        statusUrl = try c.decodeIfPresent(String.self, forKey: .statusUrl)
    }
}

/// The enriched records of one successful batch item.
package struct EnrichedRecord: Codable, Sendable, Hashable {
    package var work: WorkDTO
    package var edition: EditionDTO
    package var authors: [AuthorDTO]

    package init(work: WorkDTO, edition: EditionDTO, authors: [AuthorDTO]) {
        self.work = work
        self.edition = edition
        self.authors = authors
    }
}

extension EnrichedRecord {
    /// Decodes `enriched` leniently: nil without a decodable `work`; a missing or null `edition`
    /// becomes an edition carrying only the requested ISBN; bad `authors` become none.
    static func lenient(_ value: JSONValue, isbn: String?) -> EnrichedRecord? {
        let decoder = JSONCoding.decoder()
        func decode<T: Decodable>(_ type: T.Type, _ key: String) -> T? {
            guard let part = value[key], !part.isNull, let data = try? JSONCoding.encoder().encode(part) else {
                return nil
            }
            return try? decoder.decode(T.self, from: data)
        }
        guard let work = decode(WorkDTO.self, "work") else { return nil }
        let edition = decode(EditionDTO.self, "edition") ?? EditionDTO(isbns: isbn.map { [$0] } ?? [], isbn: isbn)
        let authors = decode([AuthorDTO].self, "authors") ?? []
        return EnrichedRecord(work: work, edition: edition, authors: authors)
    }
}

/// One element of `GET /v1/jobs/{jobId}/results` for a batch enrichment job.
package struct BatchItemResult: Codable, Sendable, Hashable {
    package var title: String
    package var author: String?
    package var isbn: String?
    package var success: Bool
    package var error: String?
    package var enriched: EnrichedRecord?

    package init(
        title: String,
        author: String? = nil,
        isbn: String? = nil,
        success: Bool,
        error: String? = nil,
        enriched: EnrichedRecord? = nil
    ) {
        self.title = title
        self.author = author
        self.isbn = isbn
        self.success = success
        self.error = error
        self.enriched = enriched
    }

    enum CodingKeys: String, CodingKey { case title, author, isbn, success, error, enriched }

    /// Lenient: `error` may be a string or an `{code, message}` object.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decodeIfPresent(String.self, forKey: .title) ?? ""
        author = try c.decodeIfPresent(String.self, forKey: .author)
        let requestedISBN = try c.decodeLenientString(forKey: .isbn)
        isbn = requestedISBN
        let claimed = try c.decodeIfPresent(JSONValue.self, forKey: .success)?.boolValue
        if let e = try c.decodeIfPresent(JSONValue.self, forKey: .error) {
            error = e.stringValue ?? e["message"]?.stringValue ?? e["code"]?.stringValue
        } else {
            error = nil
        }
        // Degrade per item, never per response: production (batch-enrichment.ts, `if (enriched)` on an
        // always-truthy result) reports books it did not find as `success: true` with no `work` and no
        // `edition` (or `edition: null`); an item whose records do not decode is reported the same way.
        let record = try c.decodeIfPresent(JSONValue.self, forKey: .enriched).flatMap { value in
            EnrichedRecord.lenient(value, isbn: requestedISBN)
        }
        enriched = record
        if claimed ?? (record != nil), record != nil {
            success = true
        } else {
            success = false
            if error == nil, claimed ?? true { error = Self.notFoundMessage }
        }
    }

    /// The error of an item the server claimed to enrich but sent no records for.
    package static let notFoundMessage = "Not found by any provider"
}

/// `data` of a job cancel (`DELETE /v1/jobs/{jobId}`).
package struct CancelResponse: Codable, Sendable, Hashable {
    package var jobId: String
    /// `canceled`, or the final state of a job that had already finished.
    package var status: JobState
    package var message: String
    /// What was cleaned up, free-form.
    package var cleanup: JSONValue

    package init(jobId: String, status: JobState = .canceled, message: String, cleanup: JSONValue = .object([:])) {
        self.jobId = jobId
        self.status = status
        self.message = message
        self.cleanup = cleanup
    }

    enum CodingKeys: String, CodingKey { case jobId, status, message, cleanup }
    private enum V3Keys: String, CodingKey { case error }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        jobId = try c.decode(String.self, forKey: .jobId)
        let stated = try c.decodeIfPresent(JobState.self, forKey: .status) ?? .canceled
        // v3 answers with the job itself: `status: failed` and `error.code: CANCELED` is a cancel.
        let failure = try? decoder.container(keyedBy: V3Keys.self).decodeIfPresent(JobError.self, forKey: .error)
        status = stated == .failed && failure?.code == .canceled ? .canceled : stated
        message = try c.decodeIfPresent(String.self, forKey: .message) ?? failure?.message ?? ""
        cleanup = try c.decodeIfPresent(JSONValue.self, forKey: .cleanup) ?? .object([:])
    }
}
