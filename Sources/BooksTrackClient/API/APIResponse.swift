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
    /// responses' headers are never looked at, so no lookup pays for masking them.
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
    /// Where the answer came from: the server, the in-memory or disk cache, or the disk cache
    /// because the server could not be reached.
    public var source: ResponseSource = .server

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

/// Where a response came from.
public enum ResponseSource: Sendable, Hashable {
    /// The server, now (a 304 revalidation included).
    case server
    /// This process's memory (no request sent).
    case memory
    /// The on-disk cache, still fresh (no request sent); `age`: since it was fetched or revalidated.
    case disk(age: Duration)
    /// The on-disk cache (fresh or not), because the server could not be reached: `reason` says
    /// how ("connection refused", "timed out after 30 s").
    case offline(age: Duration, reason: String)

    /// `server`, `memory`, `cache` or `offline-cache`: the `source` of a command's JSON.
    public var name: String {
        switch self {
        case .server: return "server"
        case .memory: return "memory"
        case .disk: return "cache"
        case .offline: return "offline-cache"
        }
    }

    /// The age of a stored answer (nil from the server or memory).
    public var age: Duration? {
        switch self {
        case .server, .memory: return nil
        case .disk(let age), .offline(let age, _): return age
        }
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
    /// Calls answered from the on-disk cache (fresh, or offline).
    public var diskHits = 0
    /// Calls whose stored answer a 304 confirmed.
    public var revalidations = 0
    /// Job tokens refreshed (`POST /api/token/refresh`).
    public var tokenRefreshes = 0
    public init() {}
}
