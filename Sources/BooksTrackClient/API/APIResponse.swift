import BooksTrackContract
import Foundation

/// A decoded result with everything the shell shows in `timing` and `--trace`.
public struct APIResponse<Value: Sendable>: Sendable {
    /// The normalized payload.
    public var value: Value
    /// Status, headers, timing, cache and rate-limit information.
    public var info: ResponseInfo

    public init(value: Value, info: ResponseInfo) {
        self.value = value
        self.info = info
    }

    /// The same response with a transformed payload.
    public func map<U: Sendable>(_ transform: (Value) throws -> U) rethrows -> APIResponse<U> {
        APIResponse<U>(value: try transform(value), info: info)
    }
}

/// How a response was obtained.
public struct ResponseInfo: Sendable {
    public var method: String
    /// The masked URL.
    public var url: String
    public var status: Int
    /// The response's headers, secrets masked (`SecretMasking.maskHeaders`). Masked when read: most
    /// responses' headers are never looked at (a lookup paid ~1% of its client CPU for them).
    public var headers: [HeaderField] {
        get { SecretMasking.maskHeaders(unmaskedHeaders) }
        set { unmaskedHeaders = newValue }
    }
    private var unmaskedHeaders: [HeaderField]
    /// Wall time of the whole call (retries and waits included); zero for cache hits.
    public var duration: Duration
    /// Time of the last attempt alone.
    public var lastAttemptDuration: Duration
    /// Attempts made (1 = no retry).
    public var attempts: Int
    /// Served from the client's cache (no request sent).
    public var cacheHit: Bool
    /// Shared another caller's identical in-flight GET.
    public var coalesced: Bool
    /// `X-Cache: HIT` from the server.
    public var serverCacheHit: Bool?
    /// `X-Response-Time` in milliseconds.
    public var serverTimeMs: Double?
    /// The envelope's metadata, when there was one.
    public var metadata: ResponseMetadata?
    /// The route's rate-limit class.
    public var rateLimitClass: RateLimitClass?
    /// What the rate-limit headers said.
    public var rateLimit: RateLimitObservation?
    /// `X-Request-Id` (or `CF-Ray`).
    public var requestID: String?
    /// `Deprecation` / `Sunset` / `Link` of a legacy route, once per session.
    public var deprecationWarning: String?
    /// Body size in bytes.
    public var bodyBytes: Int

    public init(
        method: String, url: String, status: Int, headers: [HeaderField] = [], duration: Duration = .zero,
        lastAttemptDuration: Duration = .zero, attempts: Int = 1, cacheHit: Bool = false, coalesced: Bool = false,
        serverCacheHit: Bool? = nil, serverTimeMs: Double? = nil, metadata: ResponseMetadata? = nil,
        rateLimitClass: RateLimitClass? = nil, rateLimit: RateLimitObservation? = nil, requestID: String? = nil,
        deprecationWarning: String? = nil, bodyBytes: Int = 0
    ) {
        self.method = method
        self.url = url
        self.status = status
        self.unmaskedHeaders = headers
        self.duration = duration
        self.lastAttemptDuration = lastAttemptDuration
        self.attempts = attempts
        self.cacheHit = cacheHit
        self.coalesced = coalesced
        self.serverCacheHit = serverCacheHit
        self.serverTimeMs = serverTimeMs
        self.metadata = metadata
        self.rateLimitClass = rateLimitClass
        self.rateLimit = rateLimit
        self.requestID = requestID
        self.deprecationWarning = deprecationWarning
        self.bodyBytes = bodyBytes
    }

    /// The first value of a header (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// Counters for the shell's `timing` and the benchmarks.
public struct ClientStatistics: Sendable, Hashable {
    /// Requests actually sent (attempts, retries included).
    public var requestsSent = 0
    /// Calls answered from the client cache.
    public var cacheHits = 0
    /// Calls that joined an identical in-flight GET.
    public var coalesced = 0
    /// Retries performed.
    public var retries = 0
    /// Job tokens refreshed (`POST /api/token/refresh`).
    public var tokenRefreshes = 0
    public init() {}
}
