/// A normalized API error, whatever shape the server used to send it (docs/contract.md §1).
package struct APIErrorInfo: Error, Sendable, Hashable, CustomStringConvertible {
    package var code: ErrorCode
    /// The server's message (or a sentence synthesized from the status).
    package var message: String
    package var retryable: Bool
    /// How long to wait before retrying, from `retryAfterMs` or `details.retryAfter` (seconds).
    package var retryAfterMs: Int?
    package var provider: String?
    /// From the rate limiter's `details.requestsRemaining`.
    package var requestsRemaining: Int?
    /// From the rate limiter's `details.requestsLimit`.
    package var requestsLimit: Int?
    package var details: [String: JSONValue]
    /// The HTTP status the error arrived with.
    package var httpStatus: Int
    /// RFC 9457 problem details' `errors[]` (v3 validation failures): each field and its message.
    package var fieldErrors: [FieldError] = []
    /// True when the body was RFC 9457 problem details (v3): `message` is then its `detail`.
    package var isProblemDetails = false

    package init(
        code: ErrorCode,
        message: String,
        retryable: Bool? = nil,
        retryAfterMs: Int? = nil,
        provider: String? = nil,
        requestsRemaining: Int? = nil,
        requestsLimit: Int? = nil,
        details: [String: JSONValue] = [:],
        httpStatus: Int
    ) {
        self.code = code
        self.message = message
        self.retryable = retryable ?? code.defaultRetryable
        self.retryAfterMs = retryAfterMs
        self.provider = provider
        self.requestsRemaining = requestsRemaining
        self.requestsLimit = requestsLimit
        self.details = details
        self.httpStatus = httpStatus
    }

    /// The server's own words, for problem details: `detail`, then each field's message ("Validation
    /// failed: isbn: Must be ISBN-10 or ISBN-13"); nil for the older shapes (their code's sentence is used).
    package var problemSentence: String? {
        guard isProblemDetails else { return nil }
        var text = message
        let fields = fieldErrors.map { $0.field.isEmpty ? $0.message : "\($0.field): \($0.message)" }
        if !fields.isEmpty { text += (text.isEmpty ? "" : ": ") + fields.joined(separator: "; ") }
        return text.isEmpty ? nil : text
    }

    /// Seconds to wait, rounded up.
    package var retryAfterSeconds: Int? { retryAfterMs.map { ($0 + 999) / 1000 } }

    /// The user-facing sentence (mobile wording of docs/contract.md §2).
    package var userMessage: String { code.userMessage(provider: provider, retryAfterSeconds: retryAfterSeconds) }

    package var description: String { "\(code.rawValue) (HTTP \(httpStatus)): \(message)" }
}

/// One `errors[]` entry of RFC 9457 problem details (bendv3 `packages/schemas/src/response.ts`
/// `FieldError`: `{field, message, code}`).
package struct FieldError: Sendable, Hashable {
    package var field: String
    package var message: String
    package var code: String?

    package init(field: String, message: String, code: String? = nil) {
        self.field = field
        self.message = message
        self.code = code
    }
}

extension ErrorCode {
    /// Not in the contract: the client could not decode a JSON body (see `DecodingFailure`).
    package static let invalidResponse: ErrorCode = "INVALID_RESPONSE"
}

/// Why a body could not be decoded: the coding path (`data.works[0].title`) and the reason.
package struct DecodingFailure: Sendable, Hashable, CustomStringConvertible {
    package var codingPath: String
    package var reason: String

    package init(codingPath: String, reason: String) {
        self.codingPath = codingPath
        self.reason = reason
    }

    /// Extracts path and reason from a `DecodingError` (or any error).
    package init(_ error: any Error) {
        guard let e = error as? DecodingError else {
            self.init(codingPath: "", reason: String(describing: error))
            return
        }
        switch e {
        case .keyNotFound(let key, let ctx):
            self.init(
                codingPath: Self.render(ctx.codingPath + [key]),
                reason: "missing key '\(key.stringValue)'"
            )
        case .typeMismatch(let type, let ctx):
            self.init(codingPath: Self.render(ctx.codingPath), reason: "expected \(type): \(ctx.debugDescription)")
        case .valueNotFound(let type, let ctx):
            self.init(
                codingPath: Self.render(ctx.codingPath),
                reason: "null where \(type) expected: \(ctx.debugDescription)"
            )
        case .dataCorrupted(let ctx):
            self.init(codingPath: Self.render(ctx.codingPath), reason: "corrupted: \(ctx.debugDescription)")
        @unknown default:
            self.init(codingPath: "", reason: String(describing: e))
        }
    }

    package var description: String { codingPath.isEmpty ? reason : "at \(codingPath): \(reason)" }

    static func render(_ path: [any CodingKey]) -> String {
        var out = ""
        for key in path {
            if let i = key.intValue {
                out += "[\(i)]"
            } else {
                if !out.isEmpty { out += "." }
                out += key.stringValue
            }
        }
        return out
    }
}
