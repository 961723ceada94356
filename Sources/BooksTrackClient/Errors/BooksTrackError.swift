import BooksTrackContract
import Foundation

/// The one error every `BooksTrackAPI` method throws: API errors in any of the accepted shapes,
/// transport failures, timeouts, proxy pages, CORS blocks, decoding failures and local validation.
///
/// `message` is the user-facing sentence (docs/contract.md §2 wording); `detail` is the technical
/// explanation (for `--trace` and logs); `underlying` keeps the original cause.
package struct BooksTrackError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, coarsely. A caller maps it to what it needs (the shell: its exit status,
    /// `ExitStatus(_:)`); the client knows no exit numbers.
    package enum Category: String, Sendable, Hashable, CaseIterable {
        /// Bad input caught before or by the server (400-class validation).
        case usage
        /// The server answered with an API error.
        case api
        /// The book, job or route does not exist.
        case notFound
        /// The server could not be reached, timed out, or a proxy answered instead.
        case network
        /// Rate limited and not (or no longer) allowed to wait.
        case rateLimited
        /// The feature is disabled on this server.
        case unavailable
        /// The caller cancelled (Ctrl-C).
        case cancelled
    }

    /// The precise kind of failure.
    package enum Kind: Sendable, Hashable {
        /// The server sent an error body (any accepted shape).
        case api
        /// Connection refused, reset or closed early.
        case connection
        /// The host name did not resolve.
        case dns
        /// TLS handshake or certificate failure.
        case tls
        /// The request's deadline passed (or the stream went silent too long).
        case timeout
        /// A proxy answered with an HTML or empty page instead of JSON.
        case proxyPage
        /// `X-Custom-Error: CORS_BLOCKED`.
        case corsBlocked
        /// The body was JSON of the wrong shape, or not JSON on a 2xx.
        case decoding
        /// The body exceeded the client's read bound.
        case bodyTooLarge
        /// Input rejected before any request (bad ISBN, unreadable file, bad URL).
        case invalidInput
        /// The command's feature is off on this server (no request made).
        case featureUnavailable
        /// Task cancellation.
        case cancelled
        /// Anything else.
        case other
    }

    /// The contract error code (`NETWORK_ERROR` for transport failures, `INVALID_RESPONSE` for decoding).
    package var code: ErrorCode
    package var kind: Kind
    /// The user-facing sentence.
    package var message: String
    /// The technical detail (server message, coding path, transport error).
    package var detail: String
    /// The HTTP status, when a response arrived.
    package var httpStatus: Int?
    /// Whether retrying could help.
    package var retryable: Bool
    /// How long the server asked us to wait (`Retry-After` / `retryAfterMs`).
    package var retryAfter: Duration?
    /// The upstream provider named by the server.
    package var provider: String?
    /// The server's request id (`X-Request-Id`, `CF-Ray`), when sent.
    package var requestID: String?
    /// The (masked) URL of the failed request.
    package var url: String?
    /// How many attempts were made (retries included).
    package var attempts: Int
    /// The normalized API error body, when the server sent one.
    package var apiError: APIErrorInfo?
    /// The error answer's body as it came (within the client's read bound), when a response arrived.
    package var responseBody: Data?
    /// The coding path of a decoding failure.
    package var decodingFailure: DecodingFailure?
    /// Why retrying stopped, when retries were attempted or refused.
    package var gaveUp: GiveUpReason?
    /// The original cause (AsyncHTTPClient / NIO error, DecodingError, …).
    package var underlying: (any Error & Sendable)?

    package init(
        code: ErrorCode,
        kind: Kind,
        message: String,
        detail: String = "",
        httpStatus: Int? = nil,
        retryable: Bool = false,
        retryAfter: Duration? = nil,
        provider: String? = nil,
        requestID: String? = nil,
        url: String? = nil,
        attempts: Int = 1,
        apiError: APIErrorInfo? = nil,
        decodingFailure: DecodingFailure? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.kind = kind
        self.message = message
        self.detail = detail
        self.httpStatus = httpStatus
        self.retryable = retryable
        self.retryAfter = retryAfter
        self.provider = provider
        self.requestID = requestID
        self.url = url
        self.attempts = attempts
        self.apiError = apiError
        self.decodingFailure = decodingFailure
        self.underlying = underlying
    }

    /// The coarse category (exit code).
    package var category: Category {
        switch kind {
        case .cancelled: return .cancelled
        case .connection, .dns, .tls, .timeout, .proxyPage, .corsBlocked: return .network
        case .invalidInput: return .usage
        case .featureUnavailable: return .unavailable
        case .decoding, .bodyTooLarge, .other: return .api
        case .api:
            switch code {
            case .rateLimitExceeded: return .rateLimited
            case .notFound: return .notFound
            case .featureNotAvailable, .routeNotOffered: return .unavailable
            case .missingParameter, .invalidRequest, .invalidISBN, .invalidQuery, .emptyBatch, .batchTooLarge,
                .fileTooLarge:
                return .usage
            case .networkError, .serviceUnavailable: return .network
            default: return .api
            }
        }
    }

    /// True for task cancellation.
    package var isCancellation: Bool { kind == .cancelled }

    package var description: String {
        var text = message
        if !detail.isEmpty, detail != message { text += " (\(detail))" }
        return text
    }
}

extension BooksTrackError {
    /// A cancellation (Ctrl-C, task cancelled).
    package static func cancelled(url: String? = nil) -> BooksTrackError {
        BooksTrackError(
            code: "CANCELLED",
            kind: .cancelled,
            message: "Cancelled.",
            url: url,
            underlying: CancellationError()
        )
    }

    /// Bad input caught before any request.
    package static func invalidInput(_ message: String, code: ErrorCode = .invalidRequest) -> BooksTrackError {
        BooksTrackError(code: code, kind: .invalidInput, message: message)
    }

    /// The server has no working cancel for this job (production: no route, or a route that cannot
    /// find the job's token); the job itself exists and keeps running.
    package static func cannotCancel(jobID: String, detail: String) -> BooksTrackError {
        BooksTrackError(
            code: .featureNotAvailable,
            kind: .api,
            message: "This server cannot cancel jobs; job \(jobID) keeps running (watch it, or let it finish).",
            detail: detail,
            httpStatus: 404
        )
    }

    /// A feature switched off on this server (the request was not sent).
    package static func featureUnavailable(_ command: String, reason: String) -> BooksTrackError {
        BooksTrackError(
            code: .featureNotAvailable,
            kind: .featureUnavailable,
            message: "'\(command)' is not available on this server: \(reason)"
        )
    }
}
