import BooksTrackCatalog
import BooksTrackClient
import BooksTrackServer
import Foundation
import Logging
import TestSupport

/// The real local server on port 0: `running` starts one and always shuts it down gracefully
/// (cancelling a NIO server with a buffered connection traps); `with` adds an API client pointed at it.
package enum LiveServer {
    /// The shared read-only catalog (one per test process).
    package static var catalog: Result<SQLiteCatalog, any Error> { SharedCatalog.result }

    /// Starts a server with `configuration` (port forced to 0) over `catalog` (the shared real one
    /// by default), runs `body`, and always shuts the server down.
    package static func running<T: Sendable>(
        _ configuration: ServerConfiguration = ServerConfiguration(port: 0),
        catalog: (any CatalogQuerying)? = nil,
        modules: [any ServerRouteModule] = LocalServer.defaultModules,
        logLevel: Logger.Level = .critical,
        now: @escaping @Sendable () -> Date = { Date() },
        _ body: (RunningServer) async throws -> T
    ) async throws -> T {
        var configuration = configuration
        configuration.port = 0
        var logger = Logger(label: "bts.server.tests")
        logger.logLevel = logLevel
        let server = try await LocalServer.start(
            configuration,
            catalog: try catalog ?? SharedCatalog.get(),
            logger: logger,
            modules: modules,
            now: now
        )
        do {
            let result = try await body(server)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    /// Starts a server with `configuration` (port forced to 0), runs `body`, shuts both down.
    package static func with<T: Sendable>(
        _ configuration: ServerConfiguration = ServerConfiguration(port: 0),
        modules: [any ServerRouteModule] = LocalServer.defaultModules,
        api apiConfiguration: (URL) -> APIConfiguration = { APIConfiguration(baseURL: $0) },
        _ body: (RunningServer, BooksTrackAPI) async throws -> T
    ) async throws -> T {
        var configuration = configuration
        // A private cache directory per server: the default job routes keep jobs.sqlite there.
        let scratch = try TempDir("live")
        if configuration.cacheDirectory == nil { configuration.cacheDirectory = scratch.url }
        defer { scratch.cleanup() }
        return try await running(configuration, modules: modules) { server in
            let api = BooksTrackAPI(configuration: apiConfiguration(server.baseURL))
            do {
                let result = try await body(server, api)
                await api.shutdown()
                return result
            } catch {
                await api.shutdown()
                throw error
            }
        }
    }
}
