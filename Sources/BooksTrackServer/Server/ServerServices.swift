import BooksTrackCatalog
import BooksTrackContract
import Foundation
import Hummingbird
import Logging
import Synchronization

/// The shared state of one running server, handed to every route module (core routes and the
/// job routes): configuration, catalog, limiter, faults, caches and the clock.
package final class ServerServices: Sendable {
    /// The configuration the server started with.
    package let configuration: ServerConfiguration
    /// The read-only book catalog.
    package let catalog: any CatalogQuerying
    /// Per-client, per-class limits (empty rules when limits are off).
    package let rateLimiter: RateLimiter
    /// Live fault rules (inert unless fault injection was enabled).
    package let faults: FaultInjector
    /// The server's logger.
    package let logger: Logger
    /// The clock used for timestamps, caches, idempotency and rate limits (injected in tests).
    package let now: @Sendable () -> Date

    let responseCache: ResponseCache
    let idempotency: IdempotencyStore
    let routeTable = Mutex(RouteTable())
    let providedFeatures = Mutex(Set<ServerFeature>())
    /// What `--dialect production` remembers between requests (batch job ids, used WebSocket tokens).
    let dialectState = ProductionDialectState()
    /// The job engine of the job routes module, once installed (the v3 job routes share it).
    let jobEngine = Mutex<JobEngineSource?>(nil)
    /// The connections open on the socket (`ConnectionSlots` counts them).
    let connections = ConnectionGauge()

    init(
        configuration: ServerConfiguration,
        catalog: any CatalogQuerying,
        logger: Logger,
        now: @escaping @Sendable () -> Date
    ) {
        self.configuration = configuration
        self.catalog = catalog
        self.logger = logger
        self.now = now
        self.rateLimiter = RateLimiter(
            rules: configuration.effectiveRateLimits,
            clock: { now().timeIntervalSince1970 }
        )
        self.faults = FaultInjector(enabled: configuration.faultInjectionEnabled, rules: configuration.faultRules)
        self.responseCache = ResponseCache(capacity: configuration.responseCacheCapacity)
        self.idempotency = IdempotencyStore(window: TimeInterval(configuration.idempotencyWindowSeconds))
    }

    /// Whether `feature` is served: some module provides it and the configuration does not disable it.
    package func isAvailable(_ feature: ServerFeature) -> Bool {
        configuration.isEnabled(feature) && providedFeatures.withLock { $0.contains(feature) }
    }

    /// Why a feature the configuration leaves on cannot be served here (semantic search without the
    /// sentence model), for the capabilities' `unavailable` reasons; nil otherwise.
    package func unavailableReason(_ feature: ServerFeature) -> String? {
        guard feature == .semanticSearch, configuration.isEnabled(feature) else { return nil }
        return catalog.semanticUnavailableReason
    }

    /// Throws 503 `FEATURE_NOT_AVAILABLE` when `feature` is switched off.
    package func require(_ feature: ServerFeature) throws {
        guard configuration.isEnabled(feature) else { throw APIError.featureDisabled(feature) }
    }

    /// A middleware counting every request of the routes it is attached to in `limitClass`
    /// (e.g. `router.group("/v1/jobs").add(middleware: services.rateLimit(.jobs))`).
    /// `/health` is never counted: a flood must not hide whether the server is up.
    package func rateLimit(_ limitClass: BudgetClass) -> RateLimitMiddleware {
        RateLimitMiddleware(services: self) { request in Self.isHealthCheck(request.uri.path) ? nil : limitClass }
    }

    /// The liveness route, exempt from every rate limit.
    static func isHealthCheck(_ path: String) -> Bool {
        path == APIPath.health || path == APIPath.health + "/"
    }

    /// A middleware classing each request by the contract's one route classifier,
    /// `BudgetClass.classify` (method, path and query; `nil` = not limited by class).
    package func rateLimitByRoute() -> RateLimitMiddleware {
        RateLimitMiddleware(services: self) { request in
            let uri = request.uri
            let target = uri.query.map { "\(uri.path)?\($0)" } ?? uri.path
            return BudgetClass.classify(method: request.method.rawValue, path: target)
        }
    }

    /// A middleware choosing the class per request (`nil` = not limited), e.g. by a query parameter.
    package func rateLimit(classifier: @escaping @Sendable (Request) -> BudgetClass?) -> RateLimitMiddleware {
        RateLimitMiddleware(services: self, classify: classifier)
    }

    /// Converts a thrown error into the contract's error (see `APIError.from`).
    func apiError(from error: any Error, request: Request) -> APIError {
        APIError.from(error, request: request, routes: routeTable.withLock { $0 }, logger: logger)
    }
}
