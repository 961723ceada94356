import BooksTrackCatalog
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle

/// Why the server could not start.
public struct LocalServerError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// The local BooksTrack-compatible server (CONTRACT.md §1–§4, §7, §8).
public enum LocalServer {
    /// Starts the server in-process (tests, the shell's embedded backend) and returns once it is
    /// listening. Use port 0 for an ephemeral port and read `RunningServer.port`.
    ///
    /// - Parameters:
    ///   - configuration: host, port, limits, features, faults.
    ///   - catalog: the book catalog to serve.
    ///   - logger: the server's logger.
    ///   - modules: route modules (default: core routes plus, once present, the job routes).
    ///   - now: the clock for timestamps, caches and rate limits (inject a manual clock in tests).
    public static func start(
        _ configuration: ServerConfiguration,
        catalog: any CatalogQuerying,
        logger: Logger = Logger(label: "bts.server"),
        modules: [any ServerRouteModule] = LocalServer.defaultModules,
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> RunningServer {
        let services = ServerServices(configuration: configuration, catalog: catalog, logger: logger, now: now)
        let started = StartSignal()
        let (app, onShutdown) = try makeApplication(services: services, modules: modules, logger: logger) { port in
            started.resolve(.success(port))
        }
        let group = ServiceGroup(services: [app], logger: logger)
        let runTask = Task {
            do {
                try await group.run()
                started.resolve(.failure(LocalServerError(message: "the server stopped before it was listening")))
            } catch {
                started.resolve(.failure(error))
            }
        }
        do {
            let port = try await started.value()
            return RunningServer(
                host: configuration.host, port: port, services: services, group: group, runTask: runTask,
                onShutdown: onShutdown)
        } catch {
            await group.triggerGracefulShutdown()
            await runTask.value
            await onShutdown()
            throw LocalServerError(
                message: "could not start the server on \(configuration.host):\(configuration.port): \(error)")
        }
    }

    /// Runs the server in the foreground (`bts serve`) until SIGINT or SIGTERM, then shuts down
    /// gracefully. Logs the listening address (and any enabled fault injection) to the logger,
    /// which the caller points at stderr.
    public static func serve(
        _ configuration: ServerConfiguration,
        catalog: any CatalogQuerying,
        logger: Logger = LocalServer.standardErrorLogger(),
        modules: [any ServerRouteModule] = LocalServer.defaultModules
    ) async throws {
        let services = ServerServices(configuration: configuration, catalog: catalog, logger: logger, now: { Date() })
        let (app, onShutdown) = try makeApplication(services: services, modules: modules, logger: logger) { port in
            logger.notice(
                "bts server listening on http://\(configuration.host):\(port) (\(catalog.count) books\(configuration.dialect == .production ? ", production dialect" : ""); Ctrl-C to stop)")
        }
        do {
            try await app.runService()
        } catch {
            await onShutdown()
            throw error
        }
        await onShutdown()
        logger.notice("bts server stopped")
    }

    /// A logger writing to standard error at `level`.
    public static func standardErrorLogger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "bts.server") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = level
        return logger
    }

    /// Builds the router (global middlewares, then every module) and the application.
    static func makeApplication(
        services: ServerServices,
        modules: [any ServerRouteModule],
        logger: Logger,
        onListening: @escaping @Sendable (Int) -> Void
    ) throws -> (some ApplicationProtocol, @Sendable () async -> Void) {
        let configuration = services.configuration
        let router = Router(context: ServerRequestContext.self)
        if configuration.dialect == .production {
            router.add(middleware: ProductionDialectMiddleware(services: services))
        }
        router.add(middleware: ResponseHeadersMiddleware(services: services))
        router.add(middleware: FaultInjectionMiddleware(faults: services.faults))
        router.add(middleware: services.rateLimit(.global))
        var installations: [ServerModuleInstallation] = []
        for module in modules {
            installations.append(try module.install(on: router, services: services))
        }
        let provided = installations.reduce(into: Set<ServerFeature>()) { $0.formUnion($1.providedFeatures) }
        services.providedFeatures.withLock { $0 = provided }
        let shutdownHooks = installations.compactMap(\.onShutdown)
        let onShutdown: @Sendable () async -> Void = {
            for hook in shutdownHooks { await hook() }
        }
        let table = RouteTable(router.routes)
        services.routeTable.withLock { $0 = table }

        if configuration.faultInjectionEnabled {
            logger.warning(
                "FAULT INJECTION IS ENABLED: this server will answer with deliberate errors (\(services.faults.rules.count) rule(s)). Never use it as a real backend."
            )
        }
        var http1 = HTTP1Channel.Configuration()
        if let seconds = configuration.idleTimeoutSeconds {
            http1.idleTimeout = .seconds(Int64(max(1, seconds)))
        }
        let builder = installations.lazy.compactMap(\.serverBuilder).first
            ?? .guardedHTTP1(configuration: http1, limits: configuration.requestHeadLimits)
        let app = Application(
            router: router,
            server: builder,
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: nil
            ),
            services: installations.flatMap(\.services),
            onServerRunning: { channel in
                onListening(channel.localAddress?.port ?? configuration.port)
            },
            logger: logger
        )
        return (app, onShutdown)
    }
}

/// Resolves once with the bound port or the start error; `value()` waits for it.
final class StartSignal: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Int, any Error>])
        case done(Result<Int, any Error>)
    }

    private let state = Locked(State.waiting([]))

    func resolve(_ result: Result<Int, any Error>) {
        let waiters: [CheckedContinuation<Int, any Error>] = state.withLock { state in
            guard case .waiting(let waiters) = state else { return [] }
            state = .done(result)
            return waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    func value() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Int, any Error>? = state.withLock { state in
                switch state {
                case .waiting(let waiters):
                    state = .waiting(waiters + [continuation])
                    return nil
                case .done(let result):
                    return result
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
