/// A BooksTrack error code (docs/contract.md §2).
///
/// A struct rather than an enum so that codes this build does not know still decode; compare with
/// the static members (`code == .notFound`).
package struct ErrorCode: OpenStringEnum {
    package let rawValue: String

    package init(rawValue: String) { self.rawValue = rawValue }

    /// Required parameter absent (400).
    package static let missingParameter: ErrorCode = "MISSING_PARAMETER"
    /// Malformed body or parameter (400).
    package static let invalidRequest: ErrorCode = "INVALID_REQUEST"
    /// Not a valid ISBN-10/13 (400).
    package static let invalidISBN: ErrorCode = "INVALID_ISBN"
    /// Bad query (400).
    package static let invalidQuery: ErrorCode = "INVALID_QUERY"
    /// CSV over `JobLimits.maxCSVBytes` (413).
    package static let fileTooLarge: ErrorCode = "FILE_TOO_LARGE"
    /// Batch with 0 books (400).
    package static let emptyBatch: ErrorCode = "EMPTY_BATCH"
    /// Batch with more than 100 books (400).
    package static let batchTooLarge: ErrorCode = "BATCH_TOO_LARGE"
    /// Missing or invalid Bearer token (401).
    package static let unauthorized: ErrorCode = "UNAUTHORIZED"
    /// Book, job, route or expired results (404).
    package static let notFound: ErrorCode = "NOT_FOUND"
    /// Rate limited (429); wait `Retry-After` / `retryAfterMs`.
    package static let rateLimitExceeded: ErrorCode = "RATE_LIMIT_EXCEEDED"
    /// Upstream provider down (503 documented, 429 in production); wait `retryAfterMs`.
    package static let circuitOpen: ErrorCode = "CIRCUIT_OPEN"
    /// Feature disabled on this server (503).
    package static let featureNotAvailable: ErrorCode = "FEATURE_NOT_AVAILABLE"
    /// Upstream provider failure (502).
    package static let providerError: ErrorCode = "PROVIDER_ERROR"
    /// Upstream provider timed out (504).
    package static let providerTimeout: ErrorCode = "PROVIDER_TIMEOUT"
    /// Upstream API failure (502).
    package static let apiError: ErrorCode = "API_ERROR"
    /// Network failure (504; also used by the client for transport failures).
    package static let networkError: ErrorCode = "NETWORK_ERROR"
    /// Server error (500); retry once.
    package static let internalError: ErrorCode = "INTERNAL_ERROR"
    /// SSE requested without `Accept: text/event-stream` (400).
    package static let invalidAcceptHeader: ErrorCode = "INVALID_ACCEPT_HEADER"
    /// Job-level: the CSV import failed.
    package static let csvProcessingFailed: ErrorCode = "E_CSV_PROCESSING_FAILED"
    /// Job-level: the batch enrichment failed.
    package static let batchProcessingFailed: ErrorCode = "E_BATCH_PROCESSING_FAILED"
    /// Job-level: the bookshelf scan failed (the seeds' AI scan; the stand-in's barcode reader).
    package static let aiScanFailed: ErrorCode = "E_AI_SCAN_FAILED"
    /// Job-level: unknown failure.
    package static let unknownError: ErrorCode = "E_UNKNOWN_ERROR"
    /// The route does not exist on this server (a route-level 404, e.g. production's `Endpoint not
    /// found: GET /v1/search/isbn` since v3 replaced v1/v2), or the server's API dialect has no such
    /// route at all (v3 has no author, semantic or similar search): not missing data.
    package static let routeNotOffered: ErrorCode = "ROUTE_NOT_OFFERED"
    /// v3: a job canceled by its owner (`DELETE /v3/jobs/…` ends the job with `status: failed`
    /// and this code, bendv3 `src/api-v3/jobs/imports.ts`).
    package static let canceled: ErrorCode = "CANCELED"
    /// v3: the job cannot be canceled any more (409, already completed or failed).
    package static let conflict: ErrorCode = "CONFLICT"
    /// Not in the contract: synthesized by the client for a bare 503 (e.g. a proxy page).
    package static let serviceUnavailable: ErrorCode = "SERVICE_UNAVAILABLE"

    /// Every code listed in docs/contract.md §2.
    package static let documented: [ErrorCode] = [
        .missingParameter, .invalidRequest, .invalidISBN, .invalidQuery, .fileTooLarge, .emptyBatch,
        .batchTooLarge, .unauthorized, .notFound, .rateLimitExceeded, .circuitOpen, .featureNotAvailable,
        .providerError, .providerTimeout, .apiError, .networkError, .internalError, .invalidAcceptHeader,
        .csvProcessingFailed, .batchProcessingFailed, .unknownError,
    ]

    /// True for codes this build knows (the documented ones plus `serviceUnavailable`).
    package var isKnown: Bool { Self.documented.contains(self) || self == .serviceUnavailable }

    /// The HTTP status the stand-in sends with this code (the documented one), `nil` for job-level
    /// and unknown codes. `CIRCUIT_OPEN` is 503 here although production sends 429;
    /// `PROVIDER_ERROR` is 502 and `PROVIDER_TIMEOUT` 504.
    package var httpStatus: Int? {
        switch self {
        case .missingParameter, .invalidRequest, .invalidISBN, .invalidQuery, .emptyBatch, .batchTooLarge,
            .invalidAcceptHeader:
            return 400
        case .unauthorized: return 401
        case .notFound: return 404
        case .fileTooLarge: return 413
        case .rateLimitExceeded: return 429
        case .internalError: return 500
        case .providerError, .apiError: return 502
        case .circuitOpen, .featureNotAvailable, .serviceUnavailable: return 503
        case .providerTimeout, .networkError: return 504
        default: return nil
        }
    }

    /// Whether an error with this code is worth retrying when the body does not say
    /// (`INTERNAL_ERROR` is retryable once; job-level and unknown codes are not).
    package var defaultRetryable: Bool {
        switch self {
        case .rateLimitExceeded, .circuitOpen, .providerError, .providerTimeout, .apiError, .networkError,
            .internalError, .serviceUnavailable:
            return true
        default:
            return false
        }
    }

    /// The code a client assumes for an error status whose body carries none.
    package init(httpStatus status: Int) {
        switch status {
        case 401: self = .unauthorized
        case 403: self = "FORBIDDEN"
        case 404: self = .notFound
        case 413: self = .fileTooLarge
        case 429: self = .rateLimitExceeded
        case 502: self = .apiError
        case 503: self = .serviceUnavailable
        case 504: self = .networkError
        case 500...599: self = .internalError
        default: self = .invalidRequest
        }
    }
}
