import BTSShell
import BooksTrackCatalog
import BooksTrackServer
import Foundation
import Logging

/// The embedded backend of `bts`: the local BooksTrack server over the bundled catalog, started
/// in-process on 127.0.0.1 and a free port. Injected into the shell (`BackendOptions.embedded`),
/// so `BTSShell` itself does not link the server.
public struct LocalEmbeddedBackend: EmbeddedBackend {
    /// The server's configuration (host, port and cache directory are set at start).
    public var configuration: ServerConfiguration
    /// A catalog to reuse (tests share one); nil opens the one in the cache directory.
    public var catalog: (any CatalogQuerying)?

    public init(configuration: ServerConfiguration = ServerConfiguration(), catalog: (any CatalogQuerying)? = nil) {
        self.configuration = configuration
        self.catalog = catalog
    }

    public func start(cacheDirectory: URL) async throws(ShellError) -> any RunningBackend {
        let catalog: any CatalogQuerying
        if let shared = self.catalog {
            catalog = shared
        } else {
            do {
                try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
                catalog = try SQLiteCatalog.open(cacheDirectory: cacheDirectory)
            } catch {
                throw ShellError(.failure, "cannot open the bundled catalog in \(cacheDirectory.path): \(error)")
            }
        }
        var configuration = self.configuration
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.cacheDirectory = cacheDirectory
        let logger = Logger(label: "bts.embedded") { _ in SwiftLogNoOpLogHandler() }
        do {
            return try await LocalServer.start(configuration, catalog: catalog, logger: logger)
        } catch {
            throw ShellError(.network, "cannot start the embedded server: \(error)")
        }
    }
}

extension RunningServer: RunningBackend {}
