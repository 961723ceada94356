import Foundation

/// One traced request attempt or stream event (`--trace`). Every token is already masked.
package struct TraceEvent: Sendable, Hashable {
    /// What happened.
    package enum Phase: String, Sendable, Hashable {
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

    package var phase: Phase
    /// Correlates the attempts and stream events of one call.
    package var requestID: Int
    package var attempt: Int
    package var method: String
    /// The URL, userinfo and `token` query masked.
    package var url: String
    package var status: Int?
    /// Time from sending to the end of the body (or of the event).
    package var duration: Duration
    /// Time to the response head.
    package var timeToHead: Duration?
    package var requestHeaders: [HeaderField]
    /// The request body as text (JSON tokens masked; uploads summarized), truncated.
    package var requestBody: String?
    package var responseHeaders: [HeaderField]
    /// The response body (or event data) as text, masked, truncated.
    package var responseBody: String?
    /// The error's message, if the attempt failed.
    package var error: String?
    /// Served from the client cache (no request sent).
    package var cacheHit: Bool
    /// Joined another caller's in-flight request.
    package var coalesced: Bool

    package init(
        phase: Phase,
        requestID: Int,
        attempt: Int = 1,
        method: String,
        url: String,
        status: Int? = nil,
        duration: Duration = .zero,
        timeToHead: Duration? = nil,
        requestHeaders: [HeaderField] = [],
        requestBody: String? = nil,
        responseHeaders: [HeaderField] = [],
        responseBody: String? = nil,
        error: String? = nil,
        cacheHit: Bool = false,
        coalesced: Bool = false
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
    package var summary: String {
        let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        let outcome = status.map(String.init) ?? (error ?? "…")
        return "\(method) \(url) → \(outcome) (\(String(format: "%.1f", ms)) ms)"
    }
}

/// One HTTP header (name as sent).
package struct HeaderField: Sendable, Hashable {
    package var name: String
    package var value: String
    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
