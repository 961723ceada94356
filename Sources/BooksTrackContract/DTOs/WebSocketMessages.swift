/// A WebSocket message type (docs/contract.md §6), open set.
public struct WSMessageType: OpenStringEnum {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let ready: WSMessageType = "ready"
    public static let readyAck: WSMessageType = "ready_ack"
    public static let jobStarted: WSMessageType = "job_started"
    public static let jobProgress: WSMessageType = "job_progress"
    public static let jobComplete: WSMessageType = "job_complete"
    public static let error: WSMessageType = "error"
    public static let ping: WSMessageType = "ping"
    public static let pong: WSMessageType = "pong"
}

/// `job_started` payload.
public struct JobStartedPayload: Codable, Sendable, Hashable {
    public var totalCount: Int?
    public var message: String?
    public init(totalCount: Int? = nil, message: String? = nil) {
        self.totalCount = totalCount
        self.message = message
    }
}

/// `job_progress` payload.
public struct JobProgressPayload: Codable, Sendable, Hashable {
    /// 0…1 (a percentage is normalized when decoding).
    public var progress: Double
    /// Free text ("Enriching 3/10").
    public var status: String
    public var processedCount: Int?
    public var currentItem: String?

    public init(progress: Double, status: String, processedCount: Int? = nil, currentItem: String? = nil) {
        self.progress = progress
        self.status = status
        self.processedCount = processedCount
        self.currentItem = currentItem
    }

    enum CodingKeys: String, CodingKey { case progress, status, processedCount, currentItem }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        progress = normalizedProgress(try c.decodeLenientDouble(forKey: .progress) ?? 0)
        status = try c.decodeLenientString(forKey: .status) ?? ""
        processedCount = try c.decodeLenientInt(forKey: .processedCount)
        currentItem = try c.decodeLenientString(forKey: .currentItem)
    }
}

/// `job_complete` payload: a summary only; results are fetched over HTTP.
public struct JobCompletePayload: Codable, Sendable, Hashable {
    public struct Summary: Codable, Sendable, Hashable {
        public var totalProcessed: Int
        public var successCount: Int
        public var failureCount: Int
        /// Milliseconds.
        public var duration: Int
        public var resourceId: String?

        public init(totalProcessed: Int, successCount: Int, failureCount: Int, duration: Int, resourceId: String? = nil) {
            self.totalProcessed = totalProcessed
            self.successCount = successCount
            self.failureCount = failureCount
            self.duration = duration
            self.resourceId = resourceId
        }

        enum CodingKeys: String, CodingKey { case totalProcessed, successCount, failureCount, duration, resourceId }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            totalProcessed = try c.decodeLenientInt(forKey: .totalProcessed) ?? 0
            successCount = try c.decodeLenientInt(forKey: .successCount) ?? 0
            failureCount = try c.decodeLenientInt(forKey: .failureCount) ?? 0
            duration = try c.decodeLenientInt(forKey: .duration) ?? 0
            resourceId = try c.decodeLenientString(forKey: .resourceId)
        }
    }

    public var pipeline: Pipeline
    public var summary: Summary
    /// When the results expire (ISO-8601 or epoch ms as sent, kept as text).
    public var expiresAt: String

    public init(pipeline: Pipeline, summary: Summary, expiresAt: String) {
        self.pipeline = pipeline
        self.summary = summary
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey { case pipeline, summary, expiresAt }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        pipeline = try c.decodeIfPresent(Pipeline.self, forKey: .pipeline) ?? .batchEnrichment
        // Older production messages put the summary fields directly in the payload.
        summary = try c.decodeIfPresent(Summary.self, forKey: .summary) ?? Summary(from: decoder)
        expiresAt = try c.decodeLenientString(forKey: .expiresAt) ?? ""
    }
}

/// `error` payload.
public struct WSErrorPayload: Codable, Sendable, Hashable {
    public var code: ErrorCode
    public var message: String
    public var retryable: Bool?

    public init(code: ErrorCode, message: String, retryable: Bool? = nil) {
        self.code = code
        self.message = message
        self.retryable = retryable
    }

    enum CodingKeys: String, CodingKey { case code, message, retryable, error }

    /// Lenient: production (job-state-manager.ts) nests the error as an object,
    /// `{type, data: null, metadata, error: {message, code, details}, retryable}`; older messages
    /// put `code`/`message` at the top, or `error` as a string.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let nested = try c.decodeIfPresent(JSONValue.self, forKey: .error)
        let nestedCode = nested?["code"]?.stringValue.map(ErrorCode.init(rawValue:))
        code = try c.decodeIfPresent(ErrorCode.self, forKey: .code) ?? nestedCode ?? .unknownError
        message = try c.decodeLenientString(forKey: .message) ?? nested?.stringValue ?? nested?["message"]?.stringValue ?? ""
        retryable = try c.decodeIfPresent(Bool.self, forKey: .retryable) ?? nested?["retryable"]?.boolValue
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(message, forKey: .message)
        try c.encodeIfPresent(retryable, forKey: .retryable)
    }
}

/// A typed WebSocket payload, chosen by the message `type`.
public enum WSPayload: Sendable, Hashable {
    case jobStarted(JobStartedPayload)
    case jobProgress(JobProgressPayload)
    case jobComplete(JobCompletePayload)
    case error(WSErrorPayload)
    case ping
    case pong
    /// `ready_ack` and unknown types: the payload as sent (`.null` when absent).
    case other(JSONValue)
}

/// A server → client WebSocket message: `{type, jobId, pipeline, timestamp (ms), version, payload}`.
public struct WSMessage: Codable, Sendable, Hashable {
    public var type: WSMessageType
    public var jobId: String
    public var pipeline: Pipeline?
    /// Epoch milliseconds.
    public var timestamp: Int64
    public var version: String?
    public var payload: WSPayload

    public init(type: WSMessageType, jobId: String, pipeline: Pipeline?, timestamp: Int64, version: String? = "1.0.0", payload: WSPayload) {
        self.type = type
        self.jobId = jobId
        self.pipeline = pipeline
        self.timestamp = timestamp
        self.version = version
        self.payload = payload
    }

    /// A message whose `type` follows from its payload.
    public init(jobId: String, pipeline: Pipeline?, timestamp: Int64, version: String? = "1.0.0", payload: WSPayload) {
        let type: WSMessageType
        switch payload {
        case .jobStarted: type = .jobStarted
        case .jobProgress: type = .jobProgress
        case .jobComplete: type = .jobComplete
        case .error: type = .error
        case .ping: type = .ping
        case .pong: type = .pong
        case .other: type = .readyAck
        }
        self.init(type: type, jobId: jobId, pipeline: pipeline, timestamp: timestamp, version: version, payload: payload)
    }

    enum CodingKeys: String, CodingKey { case type, jobId, pipeline, timestamp, version, payload }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decode(WSMessageType.self, forKey: .type)
        jobId = try c.decodeLenientString(forKey: .jobId) ?? ""
        pipeline = try c.decodeIfPresent(Pipeline.self, forKey: .pipeline)
        timestamp = try c.decodeEpochMillis(forKey: .timestamp) ?? 0
        version = try c.decodeLenientString(forKey: .version)
        switch type {
        case .jobStarted: payload = .jobStarted(try c.decodeIfPresent(JobStartedPayload.self, forKey: .payload) ?? JobStartedPayload())
        case .jobProgress: payload = .jobProgress(try c.decode(JobProgressPayload.self, forKey: .payload))
        case .jobComplete: payload = .jobComplete(try c.decode(JobCompletePayload.self, forKey: .payload))
        case .error: payload = .error(try c.decode(WSErrorPayload.self, forKey: .payload))
        case .ping: payload = .ping
        case .pong: payload = .pong
        default: payload = .other(try c.decodeIfPresent(JSONValue.self, forKey: .payload) ?? .null)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encode(jobId, forKey: .jobId)
        try c.encodeIfPresent(pipeline, forKey: .pipeline)
        try c.encode(timestamp, forKey: .timestamp)
        try c.encodeIfPresent(version, forKey: .version)
        switch payload {
        case .jobStarted(let p): try c.encode(p, forKey: .payload)
        case .jobProgress(let p): try c.encode(p, forKey: .payload)
        case .jobComplete(let p): try c.encode(p, forKey: .payload)
        case .error(let p): try c.encode(p, forKey: .payload)
        case .ping, .pong: try c.encode([String: JSONValue](), forKey: .payload)
        case .other(let v): if !v.isNull { try c.encode(v, forKey: .payload) }
        }
    }
}

/// A client → server WebSocket message (`{"type":"ready"}`, `{"type":"pong"}`).
public struct WSClientMessage: Codable, Sendable, Hashable {
    public var type: WSMessageType
    public init(type: WSMessageType) { self.type = type }
    public static let ready = WSClientMessage(type: .ready)
    public static let pong = WSClientMessage(type: .pong)
}

/// `POST /api/token/refresh` body.
public struct TokenRefreshRequest: Codable, Sendable, Hashable {
    public var jobId: String
    public var oldToken: String
    public init(jobId: String, oldToken: String) {
        self.jobId = jobId
        self.oldToken = oldToken
    }
}

/// `POST /api/token/refresh` answer.
public struct TokenRefreshResponse: Codable, Sendable, Hashable {
    public var jobId: String
    public var token: String
    /// Seconds.
    public var expiresIn: Int
    public init(jobId: String, token: String, expiresIn: Int) {
        self.jobId = jobId
        self.token = token
        self.expiresIn = expiresIn
    }
}

/// WebSocket close codes and what the client does about them.
public enum WSCloseCode: UInt16, Sendable, Hashable, CaseIterable {
    /// The job is done.
    case normal = 1000
    /// Server going away: reconnect in 5 s.
    case goingAway = 1001
    /// Bad or expired token: do not reconnect with it.
    case policyViolation = 1008
    /// Server error: reconnect with backoff.
    case internalError = 1011
    /// Try again later: reconnect in 30 s.
    case tryAgainLater = 1013

    /// The fixed delay before reconnecting (`nil`: none, or backoff for `internalError`).
    public var retryDelaySeconds: Int? {
        switch self {
        case .goingAway: return 5
        case .tryAgainLater: return 30
        default: return nil
        }
    }

    /// Whether the client should reconnect at all.
    public var shouldReconnect: Bool {
        switch self {
        case .goingAway, .internalError, .tryAgainLater: return true
        case .normal, .policyViolation: return false
        }
    }

    /// Whether reconnects use exponential backoff rather than a fixed delay.
    public var usesBackoff: Bool { self == .internalError }

    /// A short explanation for traces.
    public var meaning: String {
        switch self {
        case .normal: return "job finished"
        case .goingAway: return "server going away (retry in 5 s)"
        case .policyViolation: return "invalid or expired token"
        case .internalError: return "server error (retry with backoff)"
        case .tryAgainLater: return "server busy (retry in 30 s)"
        }
    }

    /// The subprotocol carrying a token: `bookstrack-auth.<token>`.
    public static func authSubprotocol(token: String) -> String { "bookstrack-auth.\(token)" }
}
