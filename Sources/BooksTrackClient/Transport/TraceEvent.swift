import Foundation

/// One traced request attempt or stream event (`--trace`). Every token is already masked.
public struct TraceEvent: Sendable, Hashable {
    /// What happened.
    public enum Phase: String, Sendable, Hashable {
        /// A request attempt finished (with a response or an error).
        case response
        /// A stream (SSE / WebSocket) connected.
        case streamOpened
        /// One event or message arrived on a stream.
        case streamEvent
        /// A stream ended.
        case streamClosed
        /// The client waits before retrying.
        case retry
    }

    public var phase: Phase
    /// Correlates the attempts and stream events of one call.
    public var requestID: Int
    public var attempt: Int
    public var method: String
    /// The URL, userinfo and `token` query masked.
    public var url: String
    public var status: Int?
    /// Time from sending to the end of the body (or of the event).
    public var duration: Duration
    /// Time to the response head.
    public var timeToHead: Duration?
    public var requestHeaders: [HeaderField]
    /// The request body as text (JSON tokens masked; uploads summarized), truncated.
    public var requestBody: String?
    public var responseHeaders: [HeaderField]
    /// The response body (or event data) as text, masked, truncated.
    public var responseBody: String?
    /// The error's message, if the attempt failed.
    public var error: String?
    /// Served from the client cache (no request sent).
    public var cacheHit: Bool
    /// Joined another caller's in-flight request.
    public var coalesced: Bool

    public init(
        phase: Phase, requestID: Int, attempt: Int = 1, method: String, url: String, status: Int? = nil,
        duration: Duration = .zero, timeToHead: Duration? = nil, requestHeaders: [HeaderField] = [],
        requestBody: String? = nil, responseHeaders: [HeaderField] = [], responseBody: String? = nil,
        error: String? = nil, cacheHit: Bool = false, coalesced: Bool = false
    ) {
        self.phase = phase
        self.requestID = requestID
        self.attempt = attempt
        self.method = method
        self.url = url
        self.status = status
        self.duration = duration
        self.timeToHead = timeToHead
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.error = error
        self.cacheHit = cacheHit
        self.coalesced = coalesced
    }

    /// A compact one-line rendering: `GET http://… → 200 (12 ms)`.
    public var summary: String {
        let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        let outcome = status.map(String.init) ?? (error ?? "…")
        return "\(method) \(url) → \(outcome) (\(String(format: "%.1f", ms)) ms)"
    }
}

/// One HTTP header (name as sent).
public struct HeaderField: Sendable, Hashable {
    public var name: String
    public var value: String
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
