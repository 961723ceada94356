/// The `error` object of a failed envelope (docs/contract.md §1), exactly as the stand-in sends it.
package struct APIErrorBody: Codable, Sendable, Hashable {
    package var code: ErrorCode
    package var message: String
    package var retryable: Bool
    package var retryAfterMs: Int?
    package var provider: String?
    package var details: [String: JSONValue]?

    package init(
        code: ErrorCode,
        message: String,
        retryable: Bool? = nil,
        retryAfterMs: Int? = nil,
        provider: String? = nil,
        details: [String: JSONValue]? = nil
    ) {
        self.code = code
        self.message = message
        self.retryable = retryable ?? code.defaultRetryable
        self.retryAfterMs = retryAfterMs
        self.provider = provider
        self.details = details
    }
}
