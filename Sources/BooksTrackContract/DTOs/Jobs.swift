import Foundation

/// The state of an import or batch job (docs/contract.md §5).
///
/// Decoding accepts production's names: `progress` (its SSE event name), `running`, `in_progress`
/// → `processing`; `cancelled` → `canceled`; `pending`, `queued` → `initialized`; `complete` →
/// `completed`; `error` → `failed`.
package enum JobState: String, Codable, Sendable, Hashable, CaseIterable {
    case initialized, processing, completed, failed, canceled

    /// Maps a status string or SSE event name, accepting production's aliases.
    package init?(lenient raw: String) {
        switch raw.lowercased() {
        case "initialized", "pending", "queued", "started": self = .initialized
        case "processing", "progress", "running", "in_progress": self = .processing
        case "completed", "complete", "done", "succeeded": self = .completed
        case "failed", "error": self = .failed
        case "canceled", "cancelled": self = .canceled
        default: return nil
        }
    }

    /// True for `completed`, `failed`, `canceled`.
    package var isTerminal: Bool { self == .completed || self == .failed || self == .canceled }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let raw = try c.decode(String.self)
        guard let state = JobState(lenient: raw) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "unknown job status '\(raw)'")
        }
        self = state
    }
}

/// A job-level error (`E_CSV_PROCESSING_FAILED`, ...), in status and SSE `failed` events.
package struct JobError: Codable, Sendable, Hashable {
    package var code: ErrorCode
    package var message: String
    package var retryable: Bool

    package init(code: ErrorCode, message: String, retryable: Bool = false) {
        self.code = code
        self.message = message
        self.retryable = retryable
    }

    enum CodingKeys: String, CodingKey { case code, message, retryable }

    /// Lenient: a bare string is a message with `E_UNKNOWN_ERROR`.
    package init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let text = try? single.decode(String.self) {
            self.init(code: .unknownError, message: text)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let code = try c.decodeIfPresent(ErrorCode.self, forKey: .code) ?? .unknownError
        self.init(
            code: code,
            message: try c.decodeIfPresent(String.self, forKey: .message) ?? code.userMessage(),
            retryable: try c.decodeIfPresent(Bool.self, forKey: .retryable) ?? false
        )
    }
}

/// `data` of `POST /api/v2/imports` (202). The client accepts `{jobId, token}` alone.
package struct ImportAccepted: Codable, Sendable, Hashable {
    package var jobId: String
    package var authToken: String
    package var token: String?
    package var sseUrl: String
    package var statusUrl: String

    package init(
        jobId: String,
        authToken: String,
        token: String? = nil,
        sseUrl: String? = nil,
        statusUrl: String? = nil
    ) {
        self.jobId = jobId
        self.authToken = authToken
        self.token = token
        self.sseUrl = sseUrl ?? ImportAccepted.defaultSSEURL(jobId: jobId)
        self.statusUrl = statusUrl ?? ImportAccepted.defaultStatusURL(jobId: jobId)
    }

    /// `/api/v2/imports/<id>/stream`.
    package static func defaultSSEURL(jobId: String) -> String { "/api/v2/imports/\(jobId)/stream" }
    /// `/api/v2/imports/<id>`.
    package static func defaultStatusURL(jobId: String) -> String { "/api/v2/imports/\(jobId)" }

    enum CodingKeys: String, CodingKey { case jobId, authToken, token, sseUrl, statusUrl }

    /// Lenient: `token` stands in for `authToken`; missing URLs get the documented defaults.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let jobId = try c.decode(String.self, forKey: .jobId)
        let token = try c.decodeIfPresent(String.self, forKey: .token)
        self.init(
            jobId: jobId,
            authToken: try c.decodeIfPresent(String.self, forKey: .authToken) ?? token ?? "",
            token: token,
            sseUrl: try c.decodeIfPresent(String.self, forKey: .sseUrl),
            statusUrl: try c.decodeIfPresent(String.self, forKey: .statusUrl)
        )
    }
}

/// Normalizes a progress figure: values above 1 are percentages (production sends 100 on completion).
func normalizedProgress(_ p: Double) -> Double {
    let v = p > 1 ? p / 100 : p
    return min(max(v, 0), 1)
}

/// `data` of `GET /api/v2/imports/{jobId}` (status, polling fallback).
package struct JobStatus: Codable, Sendable, Hashable {
    package var jobId: String
    package var status: JobState
    /// 0…1 (a percentage is normalized when decoding).
    package var progress: Double
    package var processedCount: Int
    package var totalCount: Int
    package var pipeline: Pipeline
    /// Epoch milliseconds.
    package var startTime: Int64
    /// Epoch milliseconds.
    package var completedTime: Int64?
    package var error: JobError?

    package init(
        jobId: String,
        status: JobState,
        progress: Double,
        processedCount: Int,
        totalCount: Int,
        pipeline: Pipeline,
        startTime: Int64,
        completedTime: Int64? = nil,
        error: JobError? = nil
    ) {
        self.jobId = jobId
        self.status = status
        self.progress = progress
        self.processedCount = processedCount
        self.totalCount = totalCount
        self.pipeline = pipeline
        self.startTime = startTime
        self.completedTime = completedTime
        self.error = error
    }

    enum CodingKeys: String, CodingKey {
        case jobId, status, progress, processedCount, totalCount, pipeline, startTime, completedTime, error
    }

    private enum ProductionKeys: String, CodingKey { case canceled, type }

    /// Lenient: percentages, ISO-8601 times, and missing counts/pipeline are accepted.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        jobId = try c.decodeLenientString(forKey: .jobId) ?? ""
        let stated = try c.decode(JobState.self, forKey: .status)
        // Production's JobStateManagerDO.cancelJob sets `canceled: true` and leaves `status` alone.
        let extra = try decoder.container(keyedBy: ProductionKeys.self)
        let flagged = (try? extra.decodeIfPresent(Bool.self, forKey: .canceled)) ?? nil
        let failure = try c.decodeIfPresent(JobError.self, forKey: .error)
        // v3 cancels through `sendError({code: "CANCELED"})`: the job ends `failed` with that code
        // (bendv3 src/api-v3/jobs/imports.ts, DELETE route).
        if stated == .failed, failure?.code == .canceled {
            status = .canceled
        } else {
            status = flagged == true && !stated.isTerminal ? .canceled : stated
        }
        progress = normalizedProgress(try c.decodeLenientDouble(forKey: .progress) ?? (status == .completed ? 1 : 0))
        processedCount = try c.decodeLenientInt(forKey: .processedCount) ?? 0
        totalCount = try c.decodeLenientInt(forKey: .totalCount) ?? 0
        // v3 names the pipeline `type` (csv_import, batch_enrichment, bookshelf_scan; jobs/common.ts).
        pipeline =
            try c.decodeIfPresent(Pipeline.self, forKey: .pipeline)
            ?? (try? extra.decodeIfPresent(Pipeline.self, forKey: .type)) ?? nil ?? .csvImport
        startTime = try c.decodeEpochMillis(forKey: .startTime) ?? 0
        completedTime = try c.decodeEpochMillis(forKey: .completedTime)
        error = failure
    }
}

extension KeyedDecodingContainer {
    /// Epoch milliseconds from a number or an ISO-8601 string.
    func decodeEpochMillis(forKey key: Key) throws -> Int64? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        let v = try decode(JSONValue.self, forKey: key)
        if let d = v.doubleValue, d.isFinite { return Int64(d) }
        if let s = v.stringValue, let date = ISO8601.date(from: s) {
            return Int64((date.timeIntervalSince1970 * 1000).rounded())
        }
        throw DecodingError.typeMismatch(
            Int64.self,
            .init(codingPath: codingPath + [key], debugDescription: "expected epoch ms or ISO-8601, found \(v)")
        )
    }
}

/// One row error of an import.
package struct ImportRowError: Codable, Sendable, Hashable {
    /// 1-based data row number.
    package var row: Int
    package var isbn: String
    package var error: String

    package init(row: Int, isbn: String, error: String) {
        self.row = row
        self.isbn = isbn
        self.error = error
    }

    enum CodingKeys: String, CodingKey { case row, isbn, error }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        row = try c.decodeLenientInt(forKey: .row) ?? 0
        isbn = try c.decodeLenientString(forKey: .isbn) ?? ""
        let e = try c.decodeIfPresent(JSONValue.self, forKey: .error)
        error = e?.stringValue ?? e?["message"]?.stringValue ?? ""
    }
}

/// `data` of `GET /api/v2/imports/{jobId}/results`.
package struct ImportResults: Codable, Sendable, Hashable {
    package var booksCreated: Int
    package var booksUpdated: Int
    package var duplicatesSkipped: Int
    package var enrichmentSucceeded: Int
    package var enrichmentFailed: Int
    package var errors: [ImportRowError]
    package var books: [Book]
    /// The rows matched by something other than their ISBN (bts's own server; production sends none).
    package var matches: [ImportMatch]

    package init(
        booksCreated: Int,
        booksUpdated: Int,
        duplicatesSkipped: Int,
        enrichmentSucceeded: Int,
        enrichmentFailed: Int,
        errors: [ImportRowError] = [],
        books: [Book] = [],
        matches: [ImportMatch] = []
    ) {
        self.booksCreated = booksCreated
        self.booksUpdated = booksUpdated
        self.duplicatesSkipped = duplicatesSkipped
        self.enrichmentSucceeded = enrichmentSucceeded
        self.enrichmentFailed = enrichmentFailed
        self.errors = errors
        self.books = books
        self.matches = matches
    }

    enum CodingKeys: String, CodingKey {
        case booksCreated, booksUpdated, duplicatesSkipped, enrichmentSucceeded, enrichmentFailed, errors, books,
            matches
    }

    /// Lenient: missing counters are 0, missing lists empty; `matches` is a hint, so a malformed one
    /// is none rather than a failed answer.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        booksCreated = try c.decodeLenientInt(forKey: .booksCreated) ?? 0
        booksUpdated = try c.decodeLenientInt(forKey: .booksUpdated) ?? 0
        duplicatesSkipped = try c.decodeLenientInt(forKey: .duplicatesSkipped) ?? 0
        enrichmentSucceeded = try c.decodeLenientInt(forKey: .enrichmentSucceeded) ?? 0
        enrichmentFailed = try c.decodeLenientInt(forKey: .enrichmentFailed) ?? 0
        errors = try c.decodeArrayOrEmpty(ImportRowError.self, forKey: .errors)
        books = try c.decodeArrayOrEmpty(Book.self, forKey: .books)
        matches = (try? c.decodeArrayOrEmpty(ImportMatch.self, forKey: .matches)) ?? []
    }

    /// The documented keys; `matches` only when there are some (the documented shape stays as it was).
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(booksCreated, forKey: .booksCreated)
        try c.encode(booksUpdated, forKey: .booksUpdated)
        try c.encode(duplicatesSkipped, forKey: .duplicatesSkipped)
        try c.encode(enrichmentSucceeded, forKey: .enrichmentSucceeded)
        try c.encode(enrichmentFailed, forKey: .enrichmentFailed)
        try c.encode(errors, forKey: .errors)
        try c.encode(books, forKey: .books)
        if !matches.isEmpty { try c.encode(matches, forKey: .matches) }
    }
}
