/// A WebSocket message type (docs/contract.md §6), open set.
package struct WSMessageType: OpenStringEnum {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }

    package static let ready: WSMessageType = "ready"
    package static let readyAck: WSMessageType = "ready_ack"
    package static let jobStarted: WSMessageType = "job_started"
    package static let jobProgress: WSMessageType = "job_progress"
    package static let jobComplete: WSMessageType = "job_complete"
    package static let error: WSMessageType = "error"
    package static let ping: WSMessageType = "ping"
    package static let pong: WSMessageType = "pong"
}

/// `job_started` payload.
package struct JobStartedPayload: Codable, Sendable, Hashable {
    package var totalCount: Int?
    package var message: String?
    package init(totalCount: Int? = nil, message: String? = nil) {
        self.totalCount = totalCount
        self.message = message
    }
}

/// `job_progress` payload.
package struct JobProgressPayload: Codable, Sendable, Hashable {
    /// 0…1 (a percentage is normalized when decoding).
    package var progress: Double
    /// Free text ("Enriching 3/10").
    package var status: String
    package var processedCount: Int?
    package var currentItem: String?

    package init(progress: Double, status: String, processedCount: Int? = nil, currentItem: String? = nil) {
        self.progress = progress
        self.status = status
        self.processedCount = processedCount
        self.currentItem = currentItem
    }

    enum CodingKeys: String, CodingKey { case progress, status, processedCount, currentItem }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        progress = normalizedProgress(try c.decodeLenientDouble(forKey: .progress) ?? 0)
        status = try c.decodeLenientString(forKey: .status) ?? ""
        processedCount = try c.decodeLenientInt(forKey: .processedCount)
        currentItem = try c.decodeLenientString(forKey: .currentItem)
    }
}

/// `job_complete` payload: a summary only; results are fetched over HTTP.
package struct JobCompletePayload: Codable, Sendable, Hashable {
    package struct Summary: Codable, Sendable, Hashable {
        package var totalProcessed: Int
        package var successCount: Int
        package var failureCount: Int
        /// Milliseconds.
        package var duration: Int
        package var resourceId: String?

        package init(
            totalProcessed: Int,
            successCount: Int,
            failureCount: Int,
            duration: Int,
            resourceId: String? = nil
        ) {
            self.totalProcessed = totalProcessed
            self.successCount = successCount
            self.failureCount = failureCount
            self.duration = duration
            self.resourceId = resourceId
        }

        enum CodingKeys: String, CodingKey { case totalProcessed, successCount, failureCount, duration, resourceId }

        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            totalProcessed = try c.decodeLenientInt(forKey: .totalProcessed) ?? 0
            successCount = try c.decodeLenientInt(forKey: .successCount) ?? 0
            failureCount = try c.decodeLenientInt(forKey: .failureCount) ?? 0
            duration = try c.decodeLenientInt(forKey: .duration) ?? 0
            resourceId = try c.decodeLenientString(forKey: .resourceId)
        }
    }

    package var pipeline: Pipeline
    package var summary: Summary
    /// When the results expire (ISO-8601 or epoch ms as sent, kept as text).
    package var expiresAt: String

    package init(pipeline: Pipeline, summary: Summary, expiresAt: String) {
        self.pipeline = pipeline
        self.summary = summary
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey { case pipeline, summary, expiresAt }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        pipeline = try c.decodeIfPresent(Pipeline.self, forKey: .pipeline) ?? .batchEnrichment
        // Older production messages put the summary fields directly in the payload.
        summary = try c.decodeIfPresent(Summary.self, forKey: .summary) ?? Summary(from: decoder)
        expiresAt = try c.decodeLenientString(forKey: .expiresAt) ?? ""
    }
}

/// `error` payload.
package struct WSErrorPayload: Codable, Sendable, Hashable {
    package var code: ErrorCode
    package var message: String
    package var retryable: Bool?

    package init(code: ErrorCode, message: String, retryable: Bool? = nil) {
        self.code = code
        self.message = message
        self.retryable = retryable
    }

    enum CodingKeys: String, CodingKey { case code, message, retryable, error }

    /// Lenient: production (job-state-manager.ts) nests the error as an object,
    /// `{type, data: null, metadata, error: {message, code, details}, retryable}`; older messages
    /// put `code`/`message` at the top, or `error` as a string.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let nested = try c.decodeIfPresent(JSONValue.self, forKey: .error)
        let nestedCode = nested?["code"]?.stringValue.map(ErrorCode.init(rawValue:))
        code = try c.decodeIfPresent(ErrorCode.self, forKey: .code) ?? nestedCode ?? .unknownError
        message =
            try c.decodeLenientString(forKey: .message) ?? nested?.stringValue ?? nested?["message"]?.stringValue ?? ""
        retryable = try c.decodeIfPresent(Bool.self, forKey: .retryable) ?? nested?["retryable"]?.boolValue
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(message, forKey: .message)
        try c.encodeIfPresent(retryable, forKey: .retryable)
    }
}

/// A typed WebSocket payload, chosen by the message `type`.
package enum WSPayload: Sendable, Hashable {
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
package struct WSMessage: Codable, Sendable, Hashable {
    package var type: WSMessageType
    package var jobId: String
    package var pipeline: Pipeline?
    /// Epoch milliseconds.
    package var timestamp: Int64
    package var version: String?
    package var payload: WSPayload

    package init(
        type: WSMessageType,
        jobId: String,
        pipeline: Pipeline?,
        timestamp: Int64,
        version: String? = "1.0.0",
        payload: WSPayload
    ) {
        self.type = type
        self.jobId = jobId
        self.pipeline = pipeline
        self.timestamp = timestamp
        self.version = version
        self.payload = payload
    }

    /// A message whose `type` follows from its payload.
    package init(jobId: String, pipeline: Pipeline?, timestamp: Int64, version: String? = "1.0.0", payload: WSPayload) {
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
        self.init(
            type: type,
            jobId: jobId,
            pipeline: pipeline,
            timestamp: timestamp,
            version: version,
            payload: payload
        )
    }

    enum CodingKeys: String, CodingKey { case type, jobId, pipeline, timestamp, version, payload }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decode(WSMessageType.self, forKey: .type)
        jobId = try c.decodeLenientString(forKey: .jobId) ?? ""
        pipeline = try c.decodeIfPresent(Pipeline.self, forKey: .pipeline)
        timestamp = try c.decodeEpochMillis(forKey: .timestamp) ?? 0
        version = try c.decodeLenientString(forKey: .version)
        switch type {
        case .jobStarted:
            payload = .jobStarted(
                try c.decodeIfPresent(JobStartedPayload.self, forKey: .payload) ?? JobStartedPayload()
            )
        case .jobProgress: payload = .jobProgress(try c.decode(JobProgressPayload.self, forKey: .payload))
        case .jobComplete: payload = .jobComplete(try c.decode(JobCompletePayload.self, forKey: .payload))
        case .error: payload = .error(try c.decode(WSErrorPayload.self, forKey: .payload))
        case .ping: payload = .ping
        case .pong: payload = .pong
        default: payload = .other(try c.decodeIfPresent(JSONValue.self, forKey: .payload) ?? .null)
        }
    }

    package func encode(to encoder: any Encoder) throws {
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
package struct WSClientMessage: Codable, Sendable, Hashable {
    package var type: WSMessageType
    package init(type: WSMessageType) { self.type = type }
    package static let ready = WSClientMessage(type: .ready)
    package static let pong = WSClientMessage(type: .pong)
}

/// `POST /api/token/refresh` body.
package struct TokenRefreshRequest: Codable, Sendable, Hashable {
    package var jobId: String
    package var oldToken: String
    package init(jobId: String, oldToken: String) {
        self.jobId = jobId
        self.oldToken = oldToken
    }
}

/// `POST /api/token/refresh` answer.
package struct TokenRefreshResponse: Codable, Sendable, Hashable {
    package var jobId: String
    package var token: String
    /// Seconds.
    package var expiresIn: Int
    package init(jobId: String, token: String, expiresIn: Int) {
        self.jobId = jobId
        self.token = token
        self.expiresIn = expiresIn
    }
}

/// WebSocket close codes and what the client does about them.
package enum WSCloseCode: UInt16, Sendable, Hashable, CaseIterable {
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
    package var retryDelaySeconds: Int? {
        switch self {
        case .goingAway: return 5
        case .tryAgainLater: return 30
        default: return nil
        }
    }

    /// Whether the client should reconnect at all.
    package var shouldReconnect: Bool {
        switch self {
        case .goingAway, .internalError, .tryAgainLater: return true
        case .normal, .policyViolation: return false
        }
    }

    /// Whether reconnects use exponential backoff rather than a fixed delay.
    package var usesBackoff: Bool { self == .internalError }

    /// A short explanation for traces.
    package var meaning: String {
        switch self {
        case .normal: return "job finished"
        case .goingAway: return "server going away (retry in 5 s)"
        case .policyViolation: return "invalid or expired token"
        case .internalError: return "server error (retry with backoff)"
        case .tryAgainLater: return "server busy (retry in 30 s)"
        }
    }

    /// The subprotocol carrying a token: `bookstrack-auth.<token>`.
    package static func authSubprotocol(token: String) -> String { "bookstrack-auth.\(token)" }
}
