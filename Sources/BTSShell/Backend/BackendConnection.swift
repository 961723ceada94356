import BooksTrackCatalog
import BooksTrackClient
import BooksTrackContract
import Foundation

/// How to start the embedded backend. The shell does not link the server: the `bts` executable
/// (and the tests) inject one (`BTSEmbeddedBackend`'s `LocalEmbeddedBackend`).
package protocol EmbeddedBackend: Sendable {
    /// Starts a server on 127.0.0.1 (any free port) over the bundled catalog in `cacheDirectory`.
    /// Errors are plain messages for the user.
    func start(cacheDirectory: URL) async throws(ShellError) -> any RunningBackend
    /// The catalog this backend serves from `cacheDirectory` (what the shell computes itself,
    /// `recommend --library`, reads the same one).
    func catalog(cacheDirectory: URL) throws -> SQLiteCatalog
    /// A call gated on `feature` is about to be made: start loading what answering it needs (on
    /// another thread, returning at once), so that it overlaps the backend's start and the
    /// capabilities check. Nothing by default.
    func prepare(for feature: CapabilityFeature)
    /// Whether starting in `cacheDirectory` first builds the catalog's database (the first run, or
    /// the first after an upgrade that changed it): a few seconds the shell announces.
    func buildsCatalog(cacheDirectory: URL) -> Bool
}

extension EmbeddedBackend {
    package func catalog(cacheDirectory: URL) throws -> SQLiteCatalog {
        try SQLiteCatalog.shared(cacheDirectory: cacheDirectory)
    }

    package func buildsCatalog(cacheDirectory: URL) -> Bool { false }

    package func prepare(for feature: CapabilityFeature) {}
}

/// A started embedded server.
package protocol RunningBackend: Sendable {
    var baseURL: URL { get }
    /// Answers ordinary requests in this process, without the socket (`nil`: everything goes to `baseURL`).
    var inProcess: (any InProcessResponder)? { get }
    func shutdown() async
}

extension RunningBackend {
    package var inProcess: (any InProcessResponder)? { nil }
}

/// One open backend: the API client and, for the embedded backend, the server it runs.
package final class BackendConnection: Sendable {
    package let target: BackendTarget
    package let api: BooksTrackAPI
    /// The in-process server (embedded backend only).
    package let server: (any RunningBackend)?

    init(target: BackendTarget, api: BooksTrackAPI, server: (any RunningBackend)?) {
        self.target = target
        self.api = api
        self.server = server
    }

    /// Shuts the client down, then the embedded server.
    package func shutdown() async {
        await api.shutdown()
        await server?.shutdown()
    }
}

/// How to build connections (global options that shape the API client and the embedded server).
package struct BackendOptions: Sendable {
    /// Per-attempt request deadline (`--timeout`).
    package var timeout: Duration
    /// Capabilities cache and embedded catalog directory.
    package var cacheDirectory: URL
    /// How to start the embedded backend; nil: this build has none.
    package var embedded: (any EmbeddedBackend)?
    /// Retries give up on long waits when the user asked not to wait.
    package var allowsLongRetryWaits: Bool
    /// The API client's event loop and task executor (`APIConfiguration.executor`); nil: NIO's
    /// shared loops and the global pool.
    package var executor: EventLoopTaskExecutor?
    /// The API dialect to speak (`--dialect v1|v3`); nil: negotiated with a remote server, v1/v2 on
    /// the embedded backend (its fullest surface: similar, semantic and author search, which v3 lacks).
    package var dialect: APIDialect?
    /// Keep a remote server's answers on disk (`BTS_CACHE=off`: no).
    package var usesResponseCache = true

    package init(
        timeout: Duration = .seconds(30),
        cacheDirectory: URL,
        embedded: (any EmbeddedBackend)? = nil,
        allowsLongRetryWaits: Bool = true
    ) {
        self.timeout = timeout
        self.cacheDirectory = cacheDirectory
        self.embedded = embedded
        self.allowsLongRetryWaits = allowsLongRetryWaits
    }
}

extension BackendConnection {
    /// Opens `target`: starts the embedded server when needed and creates the API client.
    /// Capabilities are read by the caller (`connect`).
    static func open(
        _ target: BackendTarget,
        options: BackendOptions,
        trace: (@Sendable (TraceEvent) -> Void)?
    ) async throws(ShellError) -> BackendConnection {
        var server: (any RunningBackend)?
        let baseURL: URL
        var bearer: String?
        var inProcess: (any InProcessResponder)?
        var dialect: APIDialect?
        switch target {
        case .remote(let url, let token, _, let profileDialect):
            baseURL = url
            bearer = token
            dialect = profileDialect
        case .embedded:
            guard let embedded = options.embedded else {
                throw ShellError(.failure, "this bts has no embedded server; give a server with --api or a profile")
            }
            let running = try await embedded.start(cacheDirectory: options.cacheDirectory)
            server = running
            baseURL = running.baseURL
            inProcess = running.inProcess
        }
        let retry = retryPolicy(allowingLongWaits: options.allowsLongRetryWaits)
        var configuration = APIConfiguration(
            baseURL: baseURL,
            timeout: options.timeout,
            retryPolicy: retry,
            // Identical concurrent GETs (a `watch` polling while a command runs) share one request.
            coalescesRequests: true,
            // The embedded server's port changes every run: caching its capabilities is pointless.
            cacheDirectory: server == nil ? options.cacheDirectory : nil,
            userAgent: "bts/\(BTSVersion.current) (BooksTrack shell)",
            trace: trace
        )
        // A profile's `token` goes out as `Authorization: Bearer …` (masked in every trace).
        configuration.bearerToken = bearer
        configuration.inProcess = inProcess
        configuration.executor = options.executor
        // Answers of a remote server are kept on disk across processes (and serve offline); the
        // embedded backend's are not: it is in-process (never offline) and answers in about the time
        // a disk read takes, from a catalog that a newer bts may replace.
        if server == nil, options.usesResponseCache {
            configuration.responseCache = ResponseDiskCache(
                directory: options.cacheDirectory,
                backend: ResponseDiskCache.backendName(baseURL, bearerToken: bearer)
            )
        }
        // `--dialect` wins over the profile's; the embedded backend speaks v1/v2 unless told.
        configuration.dialect = options.dialect ?? dialect ?? (server == nil ? nil : .v1)
        return BackendConnection(target: target, api: BooksTrackAPI(configuration: configuration), server: server)
    }

    /// The standard retry policy; with waiting off (`--no-wait`, `set wait off`) the total wait is
    /// capped at 5 s, so a long `Retry-After` fails fast instead.
    static func retryPolicy(allowingLongWaits: Bool) -> RetryPolicy {
        var retry = RetryPolicy.standard
        if !allowingLongWaits { retry.maxTotalWait = .seconds(5) }
        return retry
    }
}

/// The bts version (`--version`, User-Agent, the welcome line).
package enum BTSVersion {
    package static let current = "0.1.0"

    /// `0.1.0 (commit 1a2b3c4d5e6f)`: the version and the commit the binary was built from, as
    /// recorded by `scripts/build-release` (and `scripts/install`) in a `bts.build-info` file beside the binary or
    /// in `../share/bts/build-info` (its first line: the commit). SwiftPM has no build-time hook
    /// without a plugin, so a binary built by plain `swift build` says "unknown commit".
    package static let full: String = "\(current) (\(buildCommit.map { "commit \($0)" } ?? "unknown commit"))"

    /// The recorded commit, if a build-info file is found next to the running executable.
    static let buildCommit: String? = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let directory = executable.deletingLastPathComponent()
        let candidates = [
            directory.appendingPathComponent("bts.build-info"),
            directory.deletingLastPathComponent().appendingPathComponent("share/bts/build-info"),
        ]
        for file in candidates {
            guard let data = FileManager.default.contents(atPath: file.path), data.count < 4096 else { continue }
            let first = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first ?? ""
            let commit = first.trimmingCharacters(in: .whitespaces)
            // A hex commit, optionally marked "-dirty": nothing else is shown from the file.
            let valid =
                !commit.isEmpty && commit.count <= 60
                && commit.allSatisfy { $0.isHexDigit || $0 == "-" || ("a"..."z").contains($0) }
            if valid { return commit }
        }
        return nil
    }()
}
