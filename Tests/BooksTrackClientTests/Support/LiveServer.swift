import BooksTrackClient
import BooksTrackCatalog
import BooksTrackServer
import Foundation
import Logging

/// The real local server (with the bundled catalog) on port 0, plus an API client pointed at it.
enum LiveServer {
    /// One catalog per test process (read-only; built once in a temp dir).
    static let catalog: Result<SQLiteCatalog, any Error> = Result {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bts-client-tests-catalog")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return try SQLiteCatalog.open(cacheDirectory: dir)
    }

    /// Starts a server with `configuration` (port forced to 0), runs `body`, shuts both down.
    static func with<T: Sendable>(
        _ configuration: ServerConfiguration = ServerConfiguration(port: 0),
        modules: [any ServerRouteModule] = LocalServer.defaultModules,
        api apiConfiguration: (URL) -> APIConfiguration = { APIConfiguration(baseURL: $0) },
        _ body: (RunningServer, BooksTrackAPI) async throws -> T
    ) async throws -> T {
        var configuration = configuration
        configuration.port = 0
        // A private cache directory per server: the default job routes keep jobs.sqlite there.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bts-live-\(UUID().uuidString)")
        if configuration.cacheDirectory == nil { configuration.cacheDirectory = scratch }
        defer { try? FileManager.default.removeItem(at: scratch) }
        var logger = Logger(label: "bts.server.client-tests")
        logger.logLevel = .critical
        let server = try await LocalServer.start(configuration, catalog: try catalog.get(), logger: logger, modules: modules)
        let api = BooksTrackAPI(configuration: apiConfiguration(server.baseURL))
        do {
            let result = try await body(server, api)
            await api.shutdown()
            await server.shutdown()
            return result
        } catch {
            await api.shutdown()
            await server.shutdown()
            throw error
        }
    }
}

/// Records requested retry waits instead of sleeping (tests assert the computed wait, not wall time).
final class SleepRecorder: Sendable {
    private let state = SynchronizedBox<[Duration]>([])
    var delays: [Duration] { state.value }
    var sleep: @Sendable (Duration) async throws -> Void {
        { [state] d in
            state.mutate { $0.append(d) }
            try Task.checkCancellation()
        }
    }
}

/// A tiny lock box for test bookkeeping.
final class SynchronizedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    func mutate(_ body: (inout Value) -> Void) {
        lock.lock()
        body(&stored)
        lock.unlock()
    }
}
