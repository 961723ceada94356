import BooksTrackContract
import Foundation

/// Everything the local server can be told at start. Build it with the memberwise-style `init`
/// (every parameter has the documented default) or from `bts serve` flags with
/// `ServerConfiguration(arguments:)`.
package struct ServerConfiguration: Sendable {
    /// Interface to bind; loopback by default.
    package var host: String
    /// Port to bind; 0 picks a free ephemeral port (read it back from `RunningServer.port`).
    package var port: Int
    /// Where the catalog database lives (`$XDG_CACHE_HOME/bts/` for the shell); the server itself
    /// only records it, the catalog is opened by the caller.
    package var cacheDirectory: URL?
    /// Per-class limits (docs/contract.md §7 defaults). Ignored when `rateLimitsEnabled` is false.
    package var rateLimits: [BudgetClass: RateLimitRule]
    /// `false` turns every limit off (`--rate-limits off`).
    package var rateLimitsEnabled: Bool
    /// Features switched off (`--disable FEATURE`); everything else is on.
    package var disabledFeatures: Set<ServerFeature>
    /// Fault injection is unreachable unless this is true (`--enable-fault-injection`).
    package var faultInjectionEnabled: Bool
    /// Fault rules in force at start (ignored unless `faultInjectionEnabled`).
    package var faultRules: [FaultRule]
    /// Largest accepted JSON request body (enrich and similar); larger → 413.
    package var maxJSONBodyBytes: Int
    /// Seconds an idle keep-alive connection (no request in progress) stays open; nil = forever.
    package var idleTimeoutSeconds: Int?
    /// Where jobs are kept (`jobs.sqlite`, 0700/0600). `bts serve` sets `$XDG_STATE_HOME/bts/jobs`;
    /// nil: `<cacheDirectory>/jobs`, else a private temporary directory removed at shutdown.
    package var jobsDirectory: URL?
    /// Bounds on each request's head (size, time) and body (time): answered 431/400/408 and closed.
    package var requestHeadLimits = RequestHeadLimits()
    /// Connections served at once (`--max-connections`), and never more than half of `ulimit -n`;
    /// more wait in the listen queue (`listenBacklog`) until one closes, so that slow clients cannot
    /// use up the process's file descriptors. A connection's deadlines start when it is served.
    package var maxConnections = ServerConfiguration.defaultMaxConnections
    /// The default of `maxConnections`.
    package static let defaultMaxConnections = 512
    /// Connections the kernel holds, accepted from the client's side but not yet served, while all
    /// `maxConnections` are taken (the listen backlog; Linux caps it at `net.core.somaxconn`). They
    /// hold no file descriptor of the process and are served in turn as connections close. Past it
    /// the kernel drops a new connection's SYN and the client's TCP tries again (after 1, 3, 7… s).
    package var listenBacklog = ServerConfiguration.defaultListenBacklog
    /// The default of `listenBacklog`: room for twice the default connections waiting.
    package static let defaultListenBacklog = 1024
    /// Entries kept by the in-memory response cache.
    package var responseCacheCapacity: Int
    /// How long an enrich `idempotency_key` replays its first result.
    package var idempotencyWindowSeconds: Int
    /// Legacy `/v1` routes carry `Deprecation`, `Sunset` and `Link` headers when set.
    package var legacyDeprecation: LegacyDeprecation?
    /// Server version reported by `/health` and the capabilities.
    package var version: String
    /// Job knobs, read by the job routes (SSE heartbeat, pacing); not used by the core routes.
    package var jobs: JobTuning
    /// The contract (default) or the deployed backend's dialect (`--dialect production`).
    package var dialect: ServerDialect
    /// Whether the `/v1/*` and `/api/v2/*` routes are served (`--no-legacy-routes` turns them off:
    /// they answer production 3.x's `Endpoint not found` 404, as `src/router.ts` @ e40ae5d mounts none).
    package var servesLegacyRoutes = true

    /// The `Deprecation` / `Sunset` / `Link` values for legacy routes.
    package struct LegacyDeprecation: Sendable, Hashable {
        package var deprecation: String
        package var sunset: String?
        package var link: String?
        package init(deprecation: String = "true", sunset: String? = nil, link: String? = nil) {
            self.deprecation = deprecation
            self.sunset = sunset
            self.link = link
        }
    }

    /// Timing knobs for background jobs (CSV import, batch enrichment, SSE).
    package struct JobTuning: Sendable, Hashable {
        /// SSE `: heartbeat` interval while idle (default: `JobTimings.heartbeat`).
        package var heartbeatInterval: Duration
        /// SSE stream timeout without progress (default: `JobTimings.streamTimeout`).
        package var streamTimeout: Duration
        /// Delay between processed rows/items, to make progress observable (0 = as fast as possible).
        package var itemPacing: Duration
        /// Fault injection: cut job SSE streams (`--sse-drop`); needs fault injection enabled.
        package var sseDropFault: SSEDropFault?
        /// Unfinished jobs of all clients together (`--max-jobs`; `JobEngineConfiguration.maxConcurrentJobs`).
        package var maxConcurrentJobs = JobEngineConfiguration.defaultMaxConcurrentJobs
        /// Job workers on `JobExecutor`'s thread instead of the global executor: set by
        /// `LocalServer.serve` (`bts serve`), whose global executor is the event loops.
        package var workersOnOwnThread = false
        package init(
            heartbeatInterval: Duration = JobTimings.heartbeat,
            streamTimeout: Duration = JobTimings.streamTimeout,
            itemPacing: Duration = .zero
        ) {
            self.heartbeatInterval = heartbeatInterval
            self.streamTimeout = streamTimeout
            self.itemPacing = itemPacing
        }
    }

    /// The documented defaults of docs/contract.md §7 (stated once, on `BudgetClass`).
    package static let defaultRateLimits: [BudgetClass: RateLimitRule] = Dictionary(
        uniqueKeysWithValues: BudgetClass.allCases.map {
            ($0, RateLimitRule(limit: $0.defaultLimit, windowSeconds: $0.defaultWindowSeconds))
        }
    )

    /// Version string reported when none is given.
    package static let defaultVersion = "2.0.0-bts"

    package init(
        host: String = "127.0.0.1",
        port: Int = KnownBackend.localPort,
        cacheDirectory: URL? = nil,
        rateLimits: [BudgetClass: RateLimitRule] = ServerConfiguration.defaultRateLimits,
        rateLimitsEnabled: Bool = true,
        disabledFeatures: Set<ServerFeature> = [],
        faultInjectionEnabled: Bool = false,
        faultRules: [FaultRule] = [],
        maxJSONBodyBytes: Int = 64 * 1024,
        idleTimeoutSeconds: Int? = 60,
        responseCacheCapacity: Int = 2048,
        idempotencyWindowSeconds: Int = 24 * 3600,
        legacyDeprecation: LegacyDeprecation? = nil,
        version: String = ServerConfiguration.defaultVersion,
        jobs: JobTuning = JobTuning(),
        dialect: ServerDialect = .contract
    ) {
        self.host = host
        self.port = port
        self.cacheDirectory = cacheDirectory
        self.rateLimits = rateLimits
        self.rateLimitsEnabled = rateLimitsEnabled
        self.disabledFeatures = disabledFeatures
        self.faultInjectionEnabled = faultInjectionEnabled
        self.faultRules = faultRules
        self.maxJSONBodyBytes = maxJSONBodyBytes
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.responseCacheCapacity = responseCacheCapacity
        self.idempotencyWindowSeconds = idempotencyWindowSeconds
        self.legacyDeprecation = legacyDeprecation
        self.version = version
        self.jobs = jobs
        self.dialect = dialect
    }

    /// Whether `feature` is switched on.
    package func isEnabled(_ feature: ServerFeature) -> Bool { !disabledFeatures.contains(feature) }

    /// The limits actually enforced (empty when limits are off).
    package var effectiveRateLimits: [BudgetClass: RateLimitRule] { rateLimitsEnabled ? rateLimits : [:] }
}
