import BooksTrackContract
import Foundation

/// A decoded result with everything the shell shows in `timing` and `--trace`.
package struct APIResponse<Value: Sendable>: Sendable {
    /// The normalized payload.
    package var value: Value
    /// Status, headers, timing, cache and rate-limit information.
    package var info: ResponseInfo

    package init(value: Value, info: ResponseInfo) {
        self.value = value
        self.info = info
    }

    /// The same response with a transformed payload.
    package func map<U: Sendable>(_ transform: (Value) throws -> U) rethrows -> APIResponse<U> {
        APIResponse<U>(value: try transform(value), info: info)
    }
}

/// How a response was obtained.
package struct ResponseInfo: Sendable {
    package var method: String
    /// The masked URL.
    package var url: String
    package var status: Int
    /// The response's headers, secrets masked (`SecretMasking.maskHeaders`). Masked when read: most
    /// responses' headers are never looked at, so no lookup pays for masking them.
    package var headers: [HeaderField] {
        get { SecretMasking.maskHeaders(unmaskedHeaders) }
        set { unmaskedHeaders = newValue }
    }
    private var unmaskedHeaders: [HeaderField]
    /// Wall time of the whole call (retries and waits included); zero for cache hits.
    package var duration: Duration
    /// Time of the last attempt alone.
    package var lastAttemptDuration: Duration
    /// Attempts made (1 = no retry).
    package var attempts: Int
    /// Served from the client's cache (no request sent).
    package var cacheHit: Bool
    /// Shared another caller's identical in-flight GET.
    package var coalesced: Bool
    /// `X-Cache: HIT` from the server.
    package var serverCacheHit: Bool?
    /// `X-Response-Time` in milliseconds.
    package var serverTimeMs: Double?
    /// The envelope's metadata, when there was one.
    package var metadata: ResponseMetadata?
    /// The route's rate-limit class.
    package var rateLimitClass: RateLimitClass?
    /// What the rate-limit headers said.
    package var rateLimit: RateLimitObservation?
    /// `X-Request-Id` (or `CF-Ray`).
    package var requestID: String?
    /// `Deprecation` / `Sunset` / `Link` of a legacy route, once per session.
    package var deprecationWarning: String?
    /// Body size in bytes.
    package var bodyBytes: Int
    /// Where the answer came from: the server, the in-memory or disk cache, or the disk cache
    /// because the server could not be reached.
    package var source: ResponseSource = .server

    package init(
        method: String,
        url: String,
        status: Int,
        headers: [HeaderField] = [],
        duration: Duration = .zero,
        lastAttemptDuration: Duration = .zero,
        attempts: Int = 1,
        cacheHit: Bool = false,
        coalesced: Bool = false,
        serverCacheHit: Bool? = nil,
        serverTimeMs: Double? = nil,
        metadata: ResponseMetadata? = nil,
        rateLimitClass: RateLimitClass? = nil,
        rateLimit: RateLimitObservation? = nil,
        requestID: String? = nil,
        deprecationWarning: String? = nil,
        bodyBytes: Int = 0
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
    package func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// Where a response came from.
package enum ResponseSource: Sendable, Hashable {
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
    package var name: String {
        switch self {
        case .server: return "server"
        case .memory: return "memory"
        case .disk: return "cache"
        case .offline: return "offline-cache"
        }
    }

    /// The age of a stored answer (nil from the server or memory).
    package var age: Duration? {
        switch self {
        case .server, .memory: return nil
        case .disk(let age), .offline(let age, _): return age
        }
    }
}

/// Counters for the shell's `timing` and the benchmarks.
package struct ClientStatistics: Sendable, Hashable {
    /// Requests actually sent (attempts, retries included).
    package var requestsSent = 0
    /// Calls answered from the client cache.
    package var cacheHits = 0
    /// Calls that joined an identical in-flight GET.
    package var coalesced = 0
    /// Retries performed.
    package var retries = 0
    /// Calls answered from the on-disk cache (fresh, or offline).
    package var diskHits = 0
    /// Calls whose stored answer a 304 confirmed.
    package var revalidations = 0
    /// Job tokens refreshed (`POST /api/token/refresh`).
    package var tokenRefreshes = 0
    package init() {}
}
