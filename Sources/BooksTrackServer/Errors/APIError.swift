import BooksTrackContract
import Hummingbird

/// An error a route answers with: becomes the failure envelope of docs/contract.md §1 with
/// `X-Error-Type: <code>`. Middlewares may add headers (rate-limit headers) on the way out.
package struct APIError: Error, Sendable {
    package var code: ErrorCode
    package var status: HTTPResponse.Status
    package var message: String
    package var retryable: Bool
    package var retryAfterMs: Int?
    package var provider: String?
    package var details: [String: JSONValue]?
    /// Extra response headers (`Retry-After`, `Allow`, rate-limit headers…).
    package var headers: HTTPFields

    /// An error with the code's documented status (`ErrorCode.httpStatus`, else 500) and retryability.
    package init(
        _ code: ErrorCode,
        _ message: String,
        status: HTTPResponse.Status? = nil,
        retryable: Bool? = nil,
        retryAfterMs: Int? = nil,
        provider: String? = nil,
        details: [String: JSONValue]? = nil,
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
    package var body: APIErrorBody {
        APIErrorBody(
            code: code,
            message: message,
            retryable: retryable,
            retryAfterMs: retryAfterMs,
            provider: provider,
            details: details
        )
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
            .featureNotAvailable,
            "The feature '\(feature.rawValue)' is disabled on this server",
            details: ["feature": .string(feature.rawValue)]
        )
    }

    /// Semantic search cannot run here (no sentence model, stale book vectors): `reason` says why.
    static func semanticUnavailable(_ reason: String) -> APIError {
        APIError(
            .featureNotAvailable,
            reason,
            details: [
                "feature": .string(ServerFeature.semanticSearch.rawValue), "reason": .string("model_unavailable"),
            ]
        )
    }

    static func bookNotFound(_ isbn: String) -> APIError {
        APIError(.notFound, "No book with ISBN \(isbn) in the catalog", details: ["isbn": .string(isbn)])
    }
}
