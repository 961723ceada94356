import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import ServiceLifecycle
import Synchronization

extension JobRoutes: ServerRouteModule {
    /// The job routes as a server module.
    ///
    /// - Parameters:
    ///   - dataDirectory: where `jobs.sqlite` lives. Default: `<cacheDirectory>/jobs` of the server
    ///     configuration, or a per-process temporary directory when it has none (then jobs do not
    ///     survive a restart).
    ///   - clock: the engine's wall clock; default: the server's `services.now`.
    ///   - configure: last-minute changes to the engine configuration (tests: TTLs, SSE drop fault…).
    ///   - opensLazily: open the engine (`jobs.sqlite`, recovery of stored jobs) at the first job
    ///     request instead of at server start (the embedded backend).
    package init(
        dataDirectory: URL? = nil,
        clock: (any JobClock)? = nil,
        opensLazily: Bool = false,
        configure: @escaping @Sendable (inout JobEngineConfiguration) -> Void = { _ in }
    ) {
        self.dataDirectory = dataDirectory
        self.clock = clock
        self.opensLazily = opensLazily
        self.configureEngine = configure
    }

    /// Opens the job engine, registers every job route (with its rate-limit class and feature gate)
    /// and asks for the WebSocket-capable server builder. At graceful shutdown open SSE streams end
    /// with `event: error` (stream_error) and WebSockets close 1001; the engine stops once the server
    /// is down (unfinished jobs become `failed` "server restarted" on the next start).
    package func install(
        on router: Router<ServerRequestContext>,
        services: ServerServices
    ) throws
        -> ServerModuleInstallation
    {
        let configured =
            dataDirectory ?? services.configuration.jobsDirectory
            ?? services.configuration.cacheDirectory?.appendingPathComponent("jobs", isDirectory: true)
        // No directory configured (an embedded server): a private one, removed at shutdown.
        let directory =
            configured
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "bts-jobs-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))",
                isDirectory: true
            )
        let temporary = configured == nil
        var config = JobEngineConfiguration(server: services.configuration, dataDirectory: directory)
        configureEngine(&config)
        let now = services.now
        let catalog = services.catalog
        let logger = services.logger
        let jobClock = clock ?? ClosureJobClock(now)
        let engineConfiguration = config
        let open: @Sendable () throws -> JobEngine = {
            try JobEngine(configuration: engineConfiguration, catalog: catalog, clock: jobClock, logger: logger)
        }
        // `bts serve` opens the store at start (a broken jobs directory stops it there, and jobs a
        // restart interrupted are marked failed at once); the embedded backend at the first job request.
        let engine: JobEngineSource
        if opensLazily {
            engine = JobEngineSource(configuration: engineConfiguration, opening: open)
        } else {
            do {
                engine = JobEngineSource(try open())
            } catch {
                throw ServerStartError.opening("the jobs store", in: directory, error)
            }
        }

        services.jobEngine.withLock { $0 = engine }
        router.add(middleware: JobFeatureGate(services: services))
        router.add(middleware: services.rateLimitByRoute())
        JobRoutes.register(on: router, engine: engine) { _, context in context.clientAddress }

        var http1 = HTTP1Channel.Configuration()
        if let seconds = services.configuration.idleTimeoutSeconds {
            http1.idleTimeout = .seconds(Int64(max(1, seconds)))
        }
        return ServerModuleInstallation(
            serverBuilder: .guardedWebSocketUpgrade(
                webSocketRouter: JobRoutes.makeWebSocketRouter(
                    engine: engine,
                    dialect: services.configuration.dialect == .production ? services.dialectState : nil
                ),
                configuration: .init(http1: http1, ws: .init()),
                limits: services.configuration.requestHeadLimits
            ),
            onShutdown: {
                await engine.openedEngine?.shutdown()
                if temporary { try? FileManager.default.removeItem(at: directory) }
            },
            providedFeatures: [.csvImport, .batchEnrichment, .sseProgress, .jobCancellation, .bookshelfScan]
        )
    }
}

extension JobEngineConfiguration {
    /// The engine configuration a server configuration implies: SSE heartbeat and timeout and item
    /// pacing from `jobs`, fault injection from `faultInjectionEnabled`; the rest at contract defaults.
    package init(server: ServerConfiguration, dataDirectory: URL) {
        let pacing = server.jobs.itemPacing.jobSeconds
        self.init(
            dataDirectory: dataDirectory,
            itemsPerSecond: pacing > 0 ? 1 / pacing : 0,
            maxConcurrentJobs: server.jobs.maxConcurrentJobs,
            heartbeatInterval: server.jobs.heartbeatInterval,
            streamTimeout: server.jobs.streamTimeout,
            faultInjectionEnabled: server.faultInjectionEnabled
        )
        if server.faultInjectionEnabled { sseDropFault = server.jobs.sseDropFault }
        workersOnOwnThread = server.jobs.workersOnOwnThread
    }
}

/// A `JobClock` reading a closure (the server's `services.now`).
package struct ClosureJobClock: JobClock {
    private let read: @Sendable () -> Date
    package init(_ read: @escaping @Sendable () -> Date) { self.read = read }
    package func now() -> Date { read() }
}

/// Answers 503 `FEATURE_NOT_AVAILABLE` on job routes whose feature is switched off
/// (`csv_import`, `batch_enrichment`, `sse_progress`, `job_cancellation`).
struct JobFeatureGate: RouterMiddleware {
    typealias Context = ServerRequestContext
    let services: ServerServices

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        if let feature = Self.feature(method: request.method, path: request.uri.path) { try services.require(feature) }
        return try await next(request, context)
    }

    static func feature(method: HTTPRequest.Method, path: String) -> ServerFeature? {
        let parts = path.split(separator: "/").map(String.init)
        if parts.starts(with: ["api", "v2", "imports"]) {
            if method == .get, parts.count == 5, parts[4] == "stream" { return .sseProgress }
            return .csvImport
        }
        if parts == ["api", "batch-enrich"] || parts == ["v1", "enrichment", "batch"] { return .batchEnrichment }
        if method == .delete, parts.starts(with: ["v1", "jobs"]) || parts.starts(with: ["api", "v2", "jobs"]) {
            return .jobCancellation
        }
        return nil
    }
}
