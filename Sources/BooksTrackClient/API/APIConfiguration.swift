import BooksTrackContract
import Foundation

/// Settings of one `BooksTrackAPI` instance.
package struct APIConfiguration: Sendable {
    /// Whether the client keeps and reuses responses (ISBN lookups) in memory.
    package enum CachePolicy: String, Sendable, Hashable {
        /// Cache ISBN lookups for the server's `max-age` (default 7 days, docs/contract.md §8).
        case on
        /// Never cache (benchmarks, `--no-cache`).
        case off
    }

    /// The backend, e.g. `http://127.0.0.1:8787` or `https://api.oooefam.net`.
    package var baseURL: URL
    /// The deadline of every ordinary request (`--timeout`), per attempt.
    package var timeout: Duration
    /// The connect timeout.
    package var connectTimeout: Duration
    /// The largest response body read into memory; larger bodies fail with a clear error.
    package var maxBodyBytes: Int
    /// Streams (SSE) are closed when no byte (not even a heartbeat) arrives for this long.
    package var streamIdleTimeout: Duration
    /// Retries of retryable failures.
    package var retryPolicy: RetryPolicy
    /// The in-memory response cache.
    package var cachePolicy: CachePolicy
    /// Share one in-flight request among concurrent identical GETs.
    package var coalescesRequests: Bool
    /// Where capabilities are cached per backend (`$XDG_CACHE_HOME/bts`); `nil` = no disk cache.
    package var cacheDirectory: URL?
    /// The on-disk response cache of this backend (`$XDG_CACHE_HOME/bts/responses-….sqlite`): GETs
    /// with a TTL (the server's `Cache-Control`, else `CacheSeeds`) are kept across processes,
    /// revalidated with `If-None-Match`, and answered from it when the server cannot be reached.
    /// nil: memory only (ISBN lookups), as before. Unused when `cachePolicy` is `.off`.
    package var responseCache: ResponseDiskCache?
    /// How long cached capabilities are fresh (docs/contract.md §4: 1 hour).
    package var capabilitiesTTL: Duration
    /// Sent as `User-Agent`.
    package var userAgent: String
    /// Called for every request attempt and stream event (secrets masked). Runs on the caller's task: keep it quick.
    package var trace: (@Sendable (TraceEvent) -> Void)?
    /// Waits between retries (injectable for tests; must honour cancellation).
    package var sleep: @Sendable (Duration) async throws -> Void
    /// Wall clock for rate-limit windows and cache expiry (injectable for tests).
    package var now: @Sendable () -> Date
    /// Seed for retry jitter (`nil`: system randomness).
    package var jitterSeed: UInt64?
    /// A bearer token sent as `Authorization` on every request (a profile's `token`); a job's own
    /// token replaces it where the contract asks for one (cancel). Always masked in traces.
    package var bearerToken: String?
    /// The server in this process, when there is one (the embedded backend): ordinary requests
    /// are answered by it directly; streams and uploads use `baseURL`.
    package var inProcess: (any InProcessResponder)?
    /// The event loop the client's connections live on, as a task executor that its own tasks (a
    /// shared request, a deadline race) run on. A caller that runs its work there too
    /// (`Task(executorPreference:)`) sends, reads, decodes and renders without a thread hand-off per
    /// response. nil: NIO's shared loops and Swift's global pool.
    package var executor: EventLoopTaskExecutor?
    /// The API dialect to speak (`--dialect`, a profile's `dialect`); nil negotiates it: the
    /// capabilities route of v3 is asked first, then the v1/v2 one (see `BooksTrackAPI+Dialect`).
    package var dialect: APIDialect?
    /// Keep the tokens of jobs this client started alive with `POST /api/token/refresh`.
    package var refreshesJobTokens = true
    /// A job token's lifetime when the server does not say (docs/contract.md §6).
    package var jobTokenLifetime: Duration = JobTimings.tokenLifetime
    /// How long before expiry the server accepts a refresh (docs/contract.md §6: the last part of its life).
    package var jobTokenRefreshWindow: Duration = JobTimings.tokenRefreshWindow

    package init(
        baseURL: URL,
        timeout: Duration = .seconds(30),
        connectTimeout: Duration = .seconds(5),
        maxBodyBytes: Int = 16 * 1024 * 1024,
        streamIdleTimeout: Duration = JobTimings.clientSilenceLimit,
        retryPolicy: RetryPolicy = .standard,
        cachePolicy: CachePolicy = .on,
        coalescesRequests: Bool = true,
        cacheDirectory: URL? = nil,
        capabilitiesTTL: Duration = .seconds(3600),
        userAgent: String = "bts/0.1 (BooksTrack shell)",
        trace: (@Sendable (TraceEvent) -> Void)? = nil,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        now: @escaping @Sendable () -> Date = { Date() },
        jitterSeed: UInt64? = nil,
        bearerToken: String? = nil
    ) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxBodyBytes = maxBodyBytes
        self.streamIdleTimeout = streamIdleTimeout
        self.retryPolicy = retryPolicy
        self.cachePolicy = cachePolicy
        self.coalescesRequests = coalescesRequests
        self.cacheDirectory = cacheDirectory
        self.capabilitiesTTL = capabilitiesTTL
        self.userAgent = userAgent
        self.trace = trace
        self.sleep = sleep
        self.now = now
        self.jitterSeed = jitterSeed
        self.bearerToken = bearerToken
    }
}

extension APIConfiguration {
    /// Who the requests are from, for the caches' keys: a digest of the bearer token and the base
    /// URL's credentials (``CapabilitiesDiskCache/identity(bearerToken:url:)``); nil: anonymous.
    var cacheIdentity: String? { CapabilitiesDiskCache.identity(bearerToken: bearerToken, url: baseURL) }
}
