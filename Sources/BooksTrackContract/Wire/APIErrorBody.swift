/// The `error` object of a failed envelope (docs/contract.md §1), exactly as the stand-in sends it.
public struct APIErrorBody: Codable, Sendable, Hashable {
    public var code: ErrorCode
    public var message: String
    public var retryable: Bool
    public var retryAfterMs: Int?
    public var provider: String?
    public var details: [String: JSONValue]?

    public init(
        code: ErrorCode, message: String, retryable: Bool? = nil, retryAfterMs: Int? = nil,
        provider: String? = nil, details: [String: JSONValue]? = nil
    ) {
        self.code = code
        self.message = message
        self.retryable = retryable ?? code.defaultRetryable
        self.retryAfterMs = retryAfterMs
        self.provider = provider
        self.details = details
    }
}
