import BooksTrackCatalog
import BooksTrackContract
import BooksTrackSupport
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import UnixSignals

/// The local BooksTrack-compatible server (docs/contract.md §1–§4, §7, §8).
package enum LocalServer {
    /// Starts the server in-process (tests, the shell's embedded backend) and returns once it is
    /// listening. Use port 0 for an ephemeral port and read `RunningServer.port`.
    ///
    /// - Parameters:
    ///   - configuration: host, port, limits, features, faults.
    ///   - catalog: the book catalog to serve.
    ///   - logger: the server's logger.
    ///   - modules: route modules (default: core routes plus, once present, the job routes).
    ///   - now: the clock for timestamps, caches and rate limits (inject a manual clock in tests).
    ///   - listening: `.now` returns once the socket listens; `.onDemand` reserves the port (the
    ///     configured host must be an IPv4 address) and opens the socket on the first
    ///     `RunningServer.listen()`, so that a process which only uses `responder` never pays for it.
    package static func start(
        _ configuration: ServerConfiguration,
        catalog: any CatalogQuerying,
        logger: Logger = Logger(label: "bts.server"),
        modules: [any ServerRouteModule] = LocalServer.defaultModules,
        now: @escaping @Sendable () -> Date = { Date() },
        listening: ListenMode = .now
    ) async throws -> RunningServer {
        var configuration = configuration
        var reservation: PortReservation?
        if listening == .onDemand {
            let held = try PortReservation(host: configuration.host)
            configuration.port = held.port
            reservation = held
        }
        let services = ServerServices(configuration: configuration, catalog: catalog, logger: logger, now: now)
        let started = StartSignal()
        let parts = try makeParts(services: services, modules: modules, logger: logger)
        // The application (and with it NIO's event loop threads) and its service group are made
        // when the socket opens, not here: a process answering only in-process never starts them.
        let listener = ServerListener(started: started, reservation: reservation) {
            ServiceGroup(services: [parts.application { port in started.resolve(.success(port)) }], logger: logger)
        }
        let onShutdown = parts.onShutdown
        let responder = parts.inProcessResponder
        var port = configuration.port
        if listening == .now {
            do {
                port = try await listener.listen()
            } catch {
                await listener.stop()
                await onShutdown()
                throw LocalServerError(
                    message: "could not start the server on \(configuration.host):\(configuration.port): \(error)"
                )
            }
        }
        return RunningServer(
            host: configuration.host,
            port: port,
            services: services,
            listener: listener,
            onShutdown: onShutdown,
            responder: responder
        )
    }

    /// When `start` opens the socket.
    package enum ListenMode: Sendable, Equatable {
        /// Before `start` returns.
        case now
        /// On the first `RunningServer.listen()` (the port is reserved meanwhile).
        case onDemand
    }

    /// Runs the server in the foreground (`bts serve`) until SIGINT or SIGTERM, then shuts down
    /// gracefully. Logs the listening address (and any enabled fault injection) to the logger,
    /// which the caller points at stderr.
    package static func serve(
        _ configuration: ServerConfiguration,
        catalog: any CatalogQuerying,
        logger: Logger = LocalServer.standardErrorLogger(),
        modules: [any ServerRouteModule] = LocalServer.defaultModules,
        shutdownGrace: Duration = LocalServer.shutdownGrace
    ) async throws {
        let configuration = foreground(configuration)
        let services = ServerServices(configuration: configuration, catalog: catalog, logger: logger, now: { Date() })
        let parts = try makeParts(services: services, modules: modules, logger: logger)
        let onShutdown = parts.onShutdown
        let app = parts.application { port in
            logger.notice(
                "bts server listening on http://\(configuration.host):\(port) (\(catalog.count) books\(configuration.dialect == .production ? ", production dialect" : ""); Ctrl-C to stop)"
            )
        }
        // SIGINT or SIGTERM starts a graceful shutdown (the service group's own signal handling):
        // requests in flight may finish. One still running after `shutdownGrace` (an upload
        // trickling in) or a second signal ends the wait: the jobs are stopped and stored
        // (`onShutdown`) and `serve` returns without it, so the process exits (cancelling NIO's
        // server with a buffered connection would trap instead).
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        let end = FirstOutcome<ServeEnd>()
        Task {
            do { try await app.runService() } catch { end.resolve(.failed(error)) }
            end.resolve(.stopped)
        }
        let overdue = Task {
            var received = 0
            for await _ in signals {
                received += 1
                if received > 1 { break }
                logger.notice(
                    "stopping: requests in flight may finish within \(shutdownGrace.components.seconds) s; a second signal stops at once"
                )
                Task {
                    try? await Task.sleep(for: shutdownGrace)
                    end.resolve(.overdue(secondSignal: false))
                }
            }
            end.resolve(.overdue(secondSignal: true))
        }
        let outcome = await end.value
        overdue.cancel()
        if case .overdue(let secondSignal) = outcome {
            logger.notice(
                secondSignal
                    ? "a second signal: stopping without the requests still in flight"
                    : "requests still in flight \(shutdownGrace.components.seconds) s after the signal: stopping without them"
            )
        }
        await onShutdown()
        if case .failed(let error) = outcome { throw error }
        logger.notice("bts server stopped")
    }

    /// `configuration` as `serve` runs it: `bts serve` makes NIO's event loops Swift's global
    /// executor, so the job workers get a thread of their own (`JobExecutor`) — on the loops, an
    /// import would keep a loop's request heads unread until they time out.
    static func foreground(_ configuration: ServerConfiguration) -> ServerConfiguration {
        var configuration = configuration
        configuration.jobs.workersOnOwnThread = true
        return configuration
    }

    /// How `serve`'s server ended.
    enum ServeEnd: Sendable {
        case stopped
        case failed(any Error)
        /// Requests were still in flight `shutdownGrace` after the signal, or a second signal came.
        case overdue(secondSignal: Bool)
    }

    /// How long `serve` waits for requests in flight after SIGINT or SIGTERM.
    package static let shutdownGrace: Duration = .seconds(5)

    /// Half the process's file descriptors (`ulimit -n`): at most that many connections are served
    /// at once whatever `maxConnections` says, the rest are left for the databases and jobs.
    static func connectionDescriptors() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return Int.max
        }
        return max(16, Int(clamping: limit.rlim_cur) / 2)
    }

    /// A logger writing to standard error at `level`.
    package static func standardErrorLogger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "bts.server") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = level
        return logger
    }

    /// Builds the router (global middlewares, then every module) and its responder.
    static func makeParts(
        services: ServerServices,
        modules: [any ServerRouteModule],
        logger: Logger
    ) throws -> ServerParts {
        let configuration = services.configuration
        let router = Router(context: ServerRequestContext.self)
        if !configuration.servesLegacyRoutes {
            router.add(middleware: LegacyRoutesGoneMiddleware(services: services))
        }
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
        return ServerParts(
            responder: router.buildResponder(),
            server: installations.lazy.compactMap(\.serverBuilder).first
                ?? .guardedHTTP1(configuration: http1, limits: configuration.requestHeadLimits),
            host: configuration.host,
            port: configuration.port,
            maxConnections: max(1, min(configuration.maxConnections, Self.connectionDescriptors())),
            listenBacklog: max(1, configuration.listenBacklog),
            connections: services.connections,
            services: installations.flatMap(\.services),
            onShutdown: { for hook in shutdownHooks { await hook() } },
            logger: logger
        )
    }
}
