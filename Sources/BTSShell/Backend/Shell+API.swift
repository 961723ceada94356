import BooksTrackClient
import BooksTrackContract
import Foundation

extension Shell {
    /// The open backend, opened (and its capabilities read) on first use.
    func backend() async throws(ShellError) -> BackendConnection {
        if let connection {
            // `set wait on|off` in mid-session: retry waits follow it from the next call on.
            await connection.api.setRetryPolicy(BackendConnection.retryPolicy(allowingLongWaits: settings.wait))
            return connection
        }
        let target = try BackendSelection.select(
            options.backend, environment: options.environment, loadConfig: { () throws(ShellError) in try loadConfig() })
        return try await open(target)
    }

    /// The config file, loaded once.
    func loadConfig() throws(ShellError) -> ShellConfig {
        if let config { return config }
        let loaded = try ShellConfig.load(from: options.paths.configFile)
        config = loaded
        return loaded
    }

    /// Opens `target`, makes it current (closing the previous one) and reads its capabilities.
    /// With `requireReachable` (`connect` without `--force`), an unreachable target is closed again
    /// and the current backend stays.
    @discardableResult
    func open(_ target: BackendTarget, requireReachable: Bool = false) async throws(ShellError) -> BackendConnection {
        var backendOptions = options.backendOptions
        backendOptions.allowsLongRetryWaits = settings.wait
        let opened = try await BackendConnection.open(target, options: backendOptions, trace: traceHandler())
        let sink = self.sink
        let shows = output.showsProgress // a terminal's stderr, or `set progress on`; never --quiet
        await opened.api.setRetryHandler { progress in
            guard shows else { return }
            sink.write(TerminalText.sanitize(progress.message, lines: .flatten) + "\n", to: .standardError)
        }
        let result = await opened.api.connect(refresh: requireReachable)
        if requireReachable, let refusal = ConnectCheck.refusal(result, target: target, current: connection?.target) {
            await opened.shutdown()
            throw refusal
        }
        let previous = connection
        connection = opened
        // Jobs are remembered per backend; the embedded backend's end with the session.
        if case .remote(let url, _, _) = target { jobs.backend = SecretMasking.maskURL(url.absoluteString) } else { jobs.backend = nil }
        jobs.loadRemembered()
        await previous?.shutdown()
        return opened
    }

    /// `--trace`: one line per request on stderr, with headers and bodies (secrets already masked).
    func traceHandler() -> (@Sendable (TraceEvent) -> Void)? {
        guard settings.trace else { return nil }
        let sink = self.sink
        return { event in
            var text = "trace: \(event.phase.rawValue) \(event.summary)\n"
            for header in event.requestHeaders { text += "trace:   > \(header.name): \(header.value)\n" }
            if let body = event.requestBody, !body.isEmpty { text += "trace:   > \(body)\n" }
            for header in event.responseHeaders { text += "trace:   < \(header.name): \(header.value)\n" }
            if let body = event.responseBody, !body.isEmpty { text += "trace:   < \(body.prefix(2000))\n" }
            sink.write(TerminalText.sanitize(text), to: .standardError)
        }
    }

    /// Refuses a gated command whose feature is off, without any request (exit 1).
    func requireFeature(_ gate: CommandGate, command: String, api: BooksTrackAPI) async throws(ShellError) {
        if case .unavailable(let reason) = await api.availability(of: gate.feature) {
            throw ShellError(.failure, "'\(command)' is not available on this server: \(reason)",
                             code: ErrorCode.featureNotAvailable.rawValue)
        }
    }

    /// Runs one API call: gate check, budget admission (wait with a countdown or fail with 5),
    /// the call, then bookkeeping for `timing` and the once-per-session deprecation warning.
    func call<T: Sendable>(
        budget: RateLimitClass?, gate: CommandGate?, command: String,
        _ body: @Sendable (BooksTrackAPI) async throws -> APIResponse<T>
    ) async throws -> APIResponse<T> {
        let api = try await backend().api
        if let gate { try await requireFeature(gate, command: command, api: api) }
        if let budget { try await BudgetAdmission(output: output).admit(budget, api: api) }
        let spinner = Spinner.start(output: output, label: command) // a terminal only, after 300 ms
        let response: APIResponse<T>
        do {
            response = try await body(api)
            spinner?.stop()
        } catch {
            spinner?.stop()
            throw error
        }
        record(response.info)
        if let budget {
            let state = await api.budget(for: budget)
            if let limit = state.limit {
                let remaining = state.remaining.map(String.init) ?? "?"
                currentMetrics.budgets.append("\(budget.rawValue) \(remaining)/\(limit)")
            }
        }
        return response
    }

    /// Bookkeeping for one response.
    func record(_ info: ResponseInfo) {
        currentMetrics.calls += 1
        currentMetrics.networkTime += info.duration
        if info.cacheHit { currentMetrics.cacheHits += 1 }
        if info.serverCacheHit == true { currentMetrics.serverCacheHits += 1 }
        currentMetrics.retries += max(0, info.attempts - 1)
        if let warning = info.deprecationWarning, !deprecationsShown.contains(warning) {
            deprecationsShown.insert(warning)
            warn(warning)
        }
    }
}
