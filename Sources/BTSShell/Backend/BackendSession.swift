import BTSTerminalText
import BooksTrackClient
import BooksTrackContract
import Foundation
import Synchronization

/// The session's backend: which one to use (the config file, loaded once, names the profiles), opening
/// it on first use or on `connect`, wiring its trace and retry messages, switching, and closing it.
/// It has no isolation of its own: it runs on its owner's actor (the shell's), so a backend is
/// opened, switched and closed in the same order the session asks.
final class BackendSession {
    private let request: BackendRequest
    private let environment: [String: String]
    private let configFile: URL
    private let baseOptions: BackendOptions
    private let sink: any OutputSink
    /// The open backend, if any (never opens one).
    private(set) var connection: BackendConnection?
    /// The `wait` setting the connection's retry policy follows (nil: none open).
    private var policyWait: Bool?
    /// The `offline` setting the connection's client follows (nil: none open).
    private var policyOffline: Bool?
    private var config: ShellConfig?
    /// The config file if it has been loaded (never loads it).
    var loadedConfig: ShellConfig? { config }
    /// Whether retry lines are shown now: where progress shows (a terminal's stderr, or `set progress
    /// on`; never `--quiet`). The shell updates it before each call, so `set progress` applies at once.
    let showsRetryLines = RetryLineSwitch()

    init(options: ShellOptions, sink: any OutputSink) {
        request = options.backend
        environment = options.environment
        configFile = options.paths.configFile
        baseOptions = options.backendOptions
        self.sink = sink
    }

    /// The config file, loaded once.
    func loadConfig() throws(ShellError) -> ShellConfig {
        if let config { return config }
        let loaded = try ShellConfig.load(from: configFile)
        config = loaded
        return loaded
    }

    /// The target the session uses: the open backend's, else the one the options and config choose.
    func target() throws(ShellError) -> BackendTarget {
        if let connection { return connection.target }
        return try BackendSelection.select(
            request,
            environment: environment,
            loadConfig: { () throws(ShellError) in try loadConfig() }
        )
    }

    /// A call gated on `feature` is about to be made: the embedded backend may start loading what
    /// it needs (`EmbeddedBackend.prepare`); a server elsewhere is told nothing.
    func prepare(for feature: CapabilityFeature) {
        guard let embedded = baseOptions.embedded, (try? target()) == .embedded else { return }
        embedded.prepare(for: feature)
    }

    /// The open backend, opened (and its capabilities read) on first use.
    func current(
        settings: ShellSettings,
        showsProgress: Bool,
        isolation: isolated (any Actor)? = #isolation
    ) async throws(ShellError) -> BackendConnection {
        if let connection {
            // `set wait on|off` in mid-session: retry waits follow it from the next call on (a
            // change only: telling the client at every command was a hop to its actor and back).
            if policyWait != settings.wait {
                await connection.api.setRetryPolicy(BackendConnection.retryPolicy(allowingLongWaits: settings.wait))
                policyWait = settings.wait
            }
            if policyOffline != settings.answersOffline {
                await connection.api.setAnswersOffline(settings.answersOffline)
                policyOffline = settings.answersOffline
            }
            return connection
        }
        return try await open(target(), settings: settings, showsProgress: showsProgress)
    }

    /// Opens `target`, makes it current (closing the previous one) and reads its capabilities.
    /// With `requireReachable` (`connect` without `--force`), an unreachable target is closed again
    /// and the current backend stays.
    @discardableResult
    func open(
        _ target: BackendTarget,
        requireReachable: Bool = false,
        settings: ShellSettings,
        showsProgress: Bool,
        isolation: isolated (any Actor)? = #isolation
    ) async throws(ShellError) -> BackendConnection {
        var backendOptions = baseOptions
        backendOptions.allowsLongRetryWaits = settings.wait
        let opened = try await BackendConnection.open(
            target,
            options: backendOptions,
            trace: Self.traceHandler(settings: settings, sink: sink)
        )
        let sink = self.sink
        let shows = showsRetryLines
        shows.set(showsProgress)
        await opened.api.setRetryHandler { progress in
            guard shows.isOn else { return }
            sink.write(TerminalText.sanitize(progress.message, lines: .flatten) + "\n", to: .standardError)
        }
        await opened.api.setAnswersOffline(settings.answersOffline)
        let result = await opened.api.connect(refresh: requireReachable)
        if requireReachable, let refusal = ConnectCheck.refusal(result, target: target, current: connection?.target) {
            await opened.shutdown()
            throw refusal
        }
        let previous = connection
        connection = opened
        policyWait = settings.wait
        policyOffline = settings.answersOffline
        await previous?.shutdown()
        return opened
    }

    /// Stops the API client and the embedded server. Safe to call more than once.
    func shutdown(isolation: isolated (any Actor)? = #isolation) async {
        if let connection {
            self.connection = nil
            policyWait = nil
            policyOffline = nil
            await connection.shutdown()
        }
    }

    /// `--trace`: one line per request on stderr, with headers and bodies (secrets already masked).
    static func traceHandler(settings: ShellSettings, sink: any OutputSink) -> (@Sendable (TraceEvent) -> Void)? {
        guard settings.trace else { return nil }
        return { event in
            var text = "trace: \(event.phase.rawValue) \(event.summary)\n"
            for header in event.requestHeaders { text += "trace:   > \(header.name): \(header.value)\n" }
            if let body = event.requestBody, !body.isEmpty { text += "trace:   > \(body)\n" }
            for header in event.responseHeaders { text += "trace:   < \(header.name): \(header.value)\n" }
            if let body = event.responseBody, !body.isEmpty { text += "trace:   < \(body.prefix(2000))\n" }
            sink.write(TerminalText.sanitize(text), to: .standardError)
        }
    }
}

/// Whether retry lines are shown now; read by the API client's retry handler on its own thread.
final class RetryLineSwitch: Sendable {
    private let state = Mutex(true)
    var isOn: Bool { state.withLock { $0 } }
    func set(_ on: Bool) { state.withLock { $0 = on } }
}
