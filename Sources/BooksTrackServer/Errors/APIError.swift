import BooksTrackContract
import Hummingbird

/// An error a route answers with: becomes the failure envelope of docs/contract.md §1 with
/// `X-Error-Type: <code>`. Middlewares may add headers (rate-limit headers) on the way out.
public struct APIError: Error, Sendable {
    public var code: ErrorCode
    public var status: HTTPResponse.Status
    public var message: String
    public var retryable: Bool
    public var retryAfterMs: Int?
    public var provider: String?
    public var details: [String: JSONValue]?
    /// Extra response headers (`Retry-After`, `Allow`, rate-limit headers…).
    public var headers: HTTPFields

    /// An error with the code's documented status (`ErrorCode.httpStatus`, else 500) and retryability.
    public init(
        _ code: ErrorCode, _ message: String, status: HTTPResponse.Status? = nil, retryable: Bool? = nil,
        retryAfterMs: Int? = nil, provider: String? = nil, details: [String: JSONValue]? = nil,
        headers: HTTPFields = [:]
    ) {
        self.code = code
        self.status = status ?? .canonical(code.httpStatus ?? 500)
        self.message = message
        self.retryable = retryable ?? code.defaultRetryable
        self.retryAfterMs = retryAfterMs
        self.provider = provider
        self.details = details
        self.headers = headers
    }

    /// The wire body.
    public var body: APIErrorBody {
        APIErrorBody(
            code: code, message: message, retryable: retryable, retryAfterMs: retryAfterMs, provider: provider,
            details: details)
    }

    // MARK: Common errors

    static func missingParameter(_ name: String) -> APIError {
        APIError(.missingParameter, "Missing required parameter '\(name)'", details: ["parameter": .string(name)])
    }

    static func invalidParameter(_ name: String, _ message: String) -> APIError {
        APIError(.invalidRequest, message, details: ["parameter": .string(name)])
    }

    static func featureDisabled(_ feature: ServerFeature) -> APIError {
        APIError(
            .featureNotAvailable, "The feature '\(feature.rawValue)' is disabled on this server",
            details: ["feature": .string(feature.rawValue)])
    }

    /// Semantic search cannot run here (no sentence model, stale book vectors): `reason` says why.
    static func semanticUnavailable(_ reason: String) -> APIError {
        APIError(
            .featureNotAvailable, reason,
            details: ["feature": .string(ServerFeature.semanticSearch.rawValue), "reason": .string("model_unavailable")])
    }

    static func bookNotFound(_ isbn: String) -> APIError {
        APIError(.notFound, "No book with ISBN \(isbn) in the catalog", details: ["isbn": .string(isbn)])
    }
}
