import BooksTrackClient
import BooksTrackServer
import Foundation
import Logging

/// One open backend: the API client and, for the embedded backend, the server it runs.
public final class BackendConnection: Sendable {
    public let target: BackendTarget
    public let api: BooksTrackAPI
    /// The in-process server (embedded backend only).
    public let server: RunningServer?

    init(target: BackendTarget, api: BooksTrackAPI, server: RunningServer?) {
        self.target = target
        self.api = api
        self.server = server
    }

    /// Shuts the client down, then the embedded server.
    public func shutdown() async {
        await api.shutdown()
        await server?.shutdown()
    }
}

/// How to build connections (global options that shape the API client and the embedded server).
public struct BackendOptions: Sendable {
    /// Per-attempt request deadline (`--timeout`).
    public var timeout: Duration
    /// Capabilities cache and embedded catalog directory.
    public var cacheDirectory: URL
    /// The embedded server's configuration (port 0 is forced).
    public var embeddedServer: ServerConfiguration
    /// A catalog to reuse for the embedded server (tests share one); nil opens `cacheDirectory`'s.
    public var embeddedCatalog: (any CatalogQuerying)?
    /// Retries give up on long waits when the user asked not to wait.
    public var allowsLongRetryWaits: Bool

    public init(timeout: Duration = .seconds(30), cacheDirectory: URL, embeddedServer: ServerConfiguration = ServerConfiguration(),
                embeddedCatalog: (any CatalogQuerying)? = nil, allowsLongRetryWaits: Bool = true) {
        self.timeout = timeout
        self.cacheDirectory = cacheDirectory
        self.embeddedServer = embeddedServer
        self.embeddedCatalog = embeddedCatalog
        self.allowsLongRetryWaits = allowsLongRetryWaits
    }
}

extension BackendConnection {
    /// Opens `target`: starts the embedded server when needed and creates the API client.
    /// Capabilities are read by the caller (`connect`).
    static func open(
        _ target: BackendTarget, options: BackendOptions, trace: (@Sendable (TraceEvent) -> Void)?
    ) async throws(ShellError) -> BackendConnection {
        var server: RunningServer?
        let baseURL: URL
        var bearer: String?
        switch target {
        case .remote(let url, let token, _):
            baseURL = url
            bearer = token
        case .embedded:
            let running = try await startEmbedded(options)
            server = running
            baseURL = running.baseURL
        }
        let retry = retryPolicy(allowingLongWaits: options.allowsLongRetryWaits)
        var configuration = APIConfiguration(
            baseURL: baseURL, timeout: options.timeout, retryPolicy: retry,
            // Identical concurrent GETs (a `watch` polling while a command runs) share one request.
            coalescesRequests: true,
            // The embedded server's port changes every run: caching its capabilities is pointless.
            cacheDirectory: server == nil ? options.cacheDirectory : nil,
            userAgent: "bts/\(BTSVersion.current) (BooksTrack shell)",
            trace: trace)
        // A profile's `token` goes out as `Authorization: Bearer …` (masked in every trace).
        configuration.bearerToken = bearer
        return BackendConnection(target: target, api: BooksTrackAPI(configuration: configuration), server: server)
    }

    /// The standard retry policy; with waiting off (`--no-wait`, `set wait off`) the total wait is
    /// capped at 5 s, so a long `Retry-After` fails fast instead.
    static func retryPolicy(allowingLongWaits: Bool) -> RetryPolicy {
        var retry = RetryPolicy.standard
        if !allowingLongWaits { retry.maxTotalWait = .seconds(5) }
        return retry
    }

    static func startEmbedded(_ options: BackendOptions) async throws(ShellError) -> RunningServer {
        let catalog: any CatalogQuerying
        if let shared = options.embeddedCatalog {
            catalog = shared
        } else {
            do {
                try FileManager.default.createDirectory(at: options.cacheDirectory, withIntermediateDirectories: true)
                catalog = try SQLiteCatalog.open(cacheDirectory: options.cacheDirectory)
            } catch {
                throw ShellError(.failure, "cannot open the bundled catalog in \(options.cacheDirectory.path): \(error)")
            }
        }
        var configuration = options.embeddedServer
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.cacheDirectory = options.cacheDirectory
        let logger = Logger(label: "bts.embedded") { _ in SwiftLogNoOpLogHandler() }
        do {
            return try await LocalServer.start(configuration, catalog: catalog, logger: logger)
        } catch {
            throw ShellError(.network, "cannot start the embedded server: \(error)")
        }
    }
}

/// The bts version (`--version`, User-Agent).
public enum BTSVersion {
    public static let current = "0.1.0"
}
