import AsyncHTTPClient
import BooksTrackContract
import BooksTrackSupport
import Foundation
import NIOCore
import NIOHTTP1

/// The async API core of bts: typed calls to one BooksTrack backend over one shared HTTP client.
///
/// Every call has a deadline, retries retryable failures (docs/contract.md §2), feeds the rate-limit
/// ledger, and returns normalized Contract types with `ResponseInfo`. Identical concurrent GETs
/// share one request; ISBN lookups are cached (see `APIConfiguration.cachePolicy`).
/// Call `shutdown()` when done.
package actor BooksTrackAPI {
    /// The settings this instance was created with.
    package nonisolated let configuration: APIConfiguration
    let transport: HTTPTransport
    /// Rate-limit budgets learned from headers and capabilities.
    var ledger: RateLimitLedger
    /// Counters for `timing` and benchmarks.
    package internal(set) var statistics = ClientStatistics()
    /// The capabilities in effect (from the server or the disk cache), once `connect()` ran.
    package internal(set) var capabilities: Capabilities?
    /// Where `capabilities` came from.
    package internal(set) var capabilitiesSource: CapabilitiesSource = .none
    /// Why the last `connect()` could not fetch capabilities (nil after a success): tells
    /// "unreachable" apart from "did not publish".
    package internal(set) var lastConnectError: BooksTrackError?
    /// Called before each retry wait (e.g. "retrying 2/3 in 45 s…").
    var retryHandler: (@Sendable (RetryProgress) -> Void)?

    var cache = ResponseCache()
    /// Answer from the disk cache when the server cannot be reached (`set offline never`: no).
    package private(set) var answersOffline = true
    var flights: [String: Flight] = [:]
    var nextRequestID = 0
    var nextWaiterID = 0
    var jitter: SplitMix64?
    /// The dialect `connect()` found the server to speak (nil before; `configuration.dialect` wins).
    var negotiatedDialect: APIDialect?
    /// Jobs this client started or looked up, by id: the pipeline names a v3 job's route.
    var jobPipelines: [String: Pipeline] = [:]
    /// v3 job tokens by job id (64 lowercase hex, valid 1 h; never refreshed: a refreshed token is a
    /// UUID no v3 stream accepts).
    var v3Tokens: [String: String] = [:]
    /// Results a v3 job's `completed` event carried, by job id: production's results routes answer
    /// `results: []` (jobs/common.ts `fetchJobResults` reads an object as if it were an array).
    var v3Results: [String: JobResults] = [:]
    /// The ISBNs each v3 enrichment job of this client was asked for: its results list only the books
    /// found, so the others are reported as not found (when the list is known to be whole).
    var v3Requested: [String: [String]] = [:]
    /// Routes of the v1/v2 dialect a v3 server turned out not to serve (similar, semantic, author):
    /// remembered after the first route-level 404, so the next call says so without asking.
    var legacyRoutesGone: Set<String> = []
    /// The production server does not route `/v1/search/author`; remembered after the first 404.
    var authorRouteMissing = false
    var deprecationWarned: Set<String> = []
    var isShutdown = false
    /// The retry policy in force (from the configuration; changed by ``setRetryPolicy(_:)``).
    package private(set) var retryPolicy: RetryPolicy
    /// Tokens of the jobs this client started, refreshed before they expire, and the refreshes in flight.
    var tokens: JobTokenStore
    /// Sleeps until the next token refresh falls due (see `BooksTrackAPI+Tokens`).
    var tokenKeeper: Task<Void, Never>?
    /// The last exchange of a call (``lastExchange``).
    let exchanges = ExchangeLog()

    /// Creates an API client (no request is sent until the first call or `connect()`).
    package init(configuration: APIConfiguration) {
        self.configuration = configuration
        self.transport = HTTPTransport(configuration: configuration)
        var ledger = RateLimitLedger(clock: configuration.now)
        ledger.seedDocumentedLimits()
        self.ledger = ledger
        self.jitter = configuration.jitterSeed.map(SplitMix64.init(seed:))
        self.retryPolicy = configuration.retryPolicy
        self.tokens = JobTokenStore(
            lifetime: configuration.jobTokenLifetime.timeInterval,
            window: configuration.jobTokenRefreshWindow.timeInterval
        )
    }

    /// Convenience: `BooksTrackAPI(baseURL:)` with default settings.
    package init(baseURL: URL) {
        self.init(configuration: APIConfiguration(baseURL: baseURL))
    }

    /// The backend URL.
    package nonisolated var baseURL: URL { configuration.baseURL }

    /// Shuts the HTTP client down (in-flight requests fail and are not retried). Call exactly once; later calls are no-ops.
    package func shutdown() async {
        guard !isShutdown else { return }
        isShutdown = true
        tokenKeeper?.cancel()
        tokenKeeper = nil
        await transport.shutDown()
    }

    /// Replaces the retry policy for calls started from now on (e.g. the shell's `set wait off`).
    package func setRetryPolicy(_ policy: RetryPolicy) {
        retryPolicy = policy
    }

    /// Whether an unreachable server's lookups are answered from the disk cache (`set offline`).
    package func setAnswersOffline(_ value: Bool) {
        answersOffline = value
    }

    /// The last request and its answer (a cache's answer included), of any call but the token
    /// refreshes the client makes on its own; nil before the first. Read without waiting for the actor.
    package nonisolated var lastExchange: HTTPExchange? { exchanges.last }

    /// ``lastExchange``, forgotten: nil again until the next call gets an answer (the shell takes it
    /// after each command, so a command that made no request leaves its `_http` as it was).
    package nonisolated func takeLastExchange() -> HTTPExchange? { exchanges.take() }

    /// Sets the observer told about every retry wait (`nil` removes it).
    package func setRetryHandler(_ handler: (@Sendable (RetryProgress) -> Void)?) {
        retryHandler = handler
    }
}

/// Where the capabilities in effect came from.
package enum CapabilitiesSource: Sendable, Hashable {
    /// Not loaded (offline with no cache): gated features are unknown.
    case none
    /// Fetched from the server now.
    case server
    /// The disk cache, still fresh (under 1 h old).
    case cache(age: Duration)
    /// The disk cache, stale, used because the server could not be reached.
    case staleCache(age: Duration)
}

/// One retry about to happen (for "retrying 2/3 in 45 s…").
package struct RetryProgress: Sendable, Hashable {
    /// The attempt that comes next (2 for the first retry).
    package var attempt: Int
    /// The maximum number of attempts.
    package var of: Int
    /// The wait before it.
    package var delay: Duration
    package var reason: RetryReason
    /// The masked URL being retried.
    package var url: String
    /// "Too many requests: retrying 2/3 in 45 s…".
    package var message: String
}

/// The result of one logical call (after retries), before decoding.
struct CallOutcome: Sendable {
    var raw: RawResponse
    var attempts: Int
    var duration: Duration
    var cacheHit = false
    var coalesced = false
    /// Where the answer came from (a cache hit: memory, disk, or disk while offline).
    var source: ResponseSource = .server
    /// What the response's headers said about rate limits, when it came over the wire now (a
    /// cache hit reads them again).
    var rateLimit: RateLimitObservation?
    /// The request's rate-limit class as the contract's classifier named it (`RequestSpec.rateLimitClass`,
    /// worked out once per call).
    var requestClass: RateLimitClass?
}
