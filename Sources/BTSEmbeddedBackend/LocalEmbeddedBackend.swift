import BTSShell
import BooksTrackCatalog
import BooksTrackClient
import BooksTrackContract
import BooksTrackServer
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1

/// The embedded backend of `bts`: the local BooksTrack server over the bundled catalog, started
/// in-process on 127.0.0.1 and a free port. Injected into the shell (`BackendOptions.embedded`),
/// so `BTSShell` itself does not link the server.
package struct LocalEmbeddedBackend: EmbeddedBackend {
    /// The server's configuration (host, port and cache directory are set at start); the
    /// defaults are built only when the backend starts (a `help` never needs them).
    package var configuration: ServerConfiguration {
        get { chosenConfiguration ?? ServerConfiguration() }
        set { chosenConfiguration = newValue }
    }
    private var chosenConfiguration: ServerConfiguration?
    /// A catalog to reuse (tests share one); nil opens the one in the cache directory
    /// (`SQLiteCatalog.shared`, kept open for the next start there).
    package var catalog: (any CatalogQuerying)?

    package init(configuration: ServerConfiguration? = nil, catalog: (any CatalogQuerying)? = nil) {
        chosenConfiguration = configuration
        self.catalog = catalog
    }

    /// The backend of `bts`: the server's defaults with the rate-limit budgets `limits` chooses
    /// (none: the server meters nothing and says so in its capabilities, so the client never waits).
    package init(limits: EmbeddedLimits) {
        self.init()
        self.limits = limits
    }

    /// The budgets kept; nil: the configuration's own.
    package var limits: EmbeddedLimits?

    /// The catalog given (when it is the SQLite one), else the one in `cacheDirectory`.
    package func catalog(cacheDirectory: URL) throws -> SQLiteCatalog {
        if let given = catalog as? SQLiteCatalog { return given }
        return try SQLiteCatalog.shared(cacheDirectory: cacheDirectory)
    }

    package func buildsCatalog(cacheDirectory: URL) -> Bool {
        catalog == nil && !SQLiteCatalog.isBuilt(cacheDirectory: cacheDirectory)
    }

    /// Semantic search: the sentence model starts loading on a thread of its own
    /// (`SQLiteCatalog.prepareSemantic`) while the server starts and the capabilities are read; the
    /// query then finds it loaded.
    package func prepare(for feature: CapabilityFeature) {
        if feature == .semanticSearch { SQLiteCatalog.prepareSemantic() }
    }

    package func start(cacheDirectory: URL) async throws(ShellError) -> any RunningBackend {
        let catalog: any CatalogQuerying
        if let shared = self.catalog {
            catalog = shared
        } else {
            do {
                catalog = try SQLiteCatalog.shared(cacheDirectory: cacheDirectory)
            } catch {
                throw ShellError(.failure, "cannot open the bundled catalog in \(cacheDirectory.path): \(error)")
            }
        }
        var configuration = self.configuration
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.cacheDirectory = cacheDirectory
        if let limits { configuration.rateLimitsEnabled = limits == .production }
        let logger = Logger(label: "bts.embedded") { _ in SwiftLogNoOpLogHandler() }
        do {
            // The socket opens only when a stream or an upload needs it: ordinary requests are
            // answered in this process (`inProcess`), so a one-shot lookup never listens; the job
            // store opens at the first job request, so it never opens `jobs.sqlite` either.
            return try await LocalServer.start(
                configuration,
                catalog: catalog,
                logger: logger,
                modules: [CoreRoutes(), V3Routes(), JobRoutes(opensLazily: true)],
                listening: .onDemand
            )
        } catch {
            throw ShellError(.network, "cannot start the embedded server: \(error)")
        }
    }
}

extension RunningServer: RunningBackend {
    /// Ordinary requests are answered by the router in this process, without the socket.
    package var inProcess: (any InProcessResponder)? { EmbeddedResponder(server: self) }
}

/// The client's in-process door to the server's router (header and status types translated).
struct EmbeddedResponder: InProcessResponder {
    let server: RunningServer

    func openSocket() async throws {
        try await server.listen()
    }

    func respond(
        method: String,
        target: String,
        headers: HTTPHeaders,
        body: ByteBuffer?,
        bodyLimit: Int
    ) async throws
        -> InProcessResponse
    {
        var fields = HTTPFields()
        for header in headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        let answer: (status: Int, headers: HTTPFields, body: ByteBuffer)
        do {
            answer = try await server.responder.respond(
                method: HTTPRequest.Method(method) ?? .get,
                target: target,
                headers: fields,
                body: body,
                bodyLimit: bodyLimit
            )
        } catch is LocalResponderBodyTooLarge {
            throw InProcessBodyTooLarge()
        }
        var out = HTTPHeaders()
        for field in answer.headers { out.add(name: field.name.rawName, value: field.value) }
        return InProcessResponse(status: answer.status, headers: out, body: answer.body)
    }
}
