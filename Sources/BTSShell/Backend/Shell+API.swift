import BooksTrackClient
import Foundation

/// The commands' API surface on the session: the backend (`BackendSession`) and the call pipeline,
/// whose bookkeeping is the `CallLedger`'s.
extension Shell {
    /// The backend if one is open (never opens one).
    var connection: BackendConnection? { services.backendSession.connection }

    /// The open backend, opened (and its capabilities read) on first use.
    func backend() async throws(ShellError) -> BackendConnection {
        let before = services.backendSession.connection
        if before == nil { announceCatalogBuild() }
        let current = try await services.backendSession.current(settings: settings, showsProgress: output.showsProgress)
        if current !== before { adoptJobs(for: current.target) }
        return current
    }

    /// The first run on the embedded backend builds the catalog's database (a few seconds): said
    /// where progress shows, so the screen is not silent meanwhile. Once: then it is built.
    private func announceCatalogBuild() {
        guard output.showsProgress, let embedded = options.backendOptions.embedded,
            (try? services.backendSession.target()) == .embedded,
            embedded.buildsCatalog(cacheDirectory: options.backendOptions.cacheDirectory)
        else { return }
        note("building the catalog database (once: a few seconds)…")
    }

    /// The config file, loaded once.
    func loadConfig() throws(ShellError) -> ShellConfig { try services.backendSession.loadConfig() }

    /// Opens `target` and makes it current (`connect`).
    @discardableResult
    func open(_ target: BackendTarget, requireReachable: Bool = false) async throws(ShellError) -> BackendConnection {
        let opened = try await services.backendSession.open(
            target,
            requireReachable: requireReachable,
            settings: settings,
            showsProgress: output.showsProgress
        )
        adoptJobs(for: target)
        return opened
    }

    /// Jobs are remembered per backend; the embedded backend's end with the session.
    func adoptJobs(for target: BackendTarget) {
        if case .remote(let url, _, _, _) = target {
            services.jobs.backend = SecretMasking.maskURL(url.absoluteString)
        } else {
            services.jobs.backend = nil
        }
        services.jobs.loadRemembered()
    }

    /// `last` or a job id → the id and the session's record of it. The jobs remembered for the
    /// backend the session will use are loaded first: with no backend open yet (a process's first
    /// command), `status last` and `cancel ID` still find the jobs earlier processes started.
    func findJob(_ reference: String?) throws(ShellError) -> (id: String, record: SessionJob?) {
        if connection == nil, let target = try? services.backendSession.target() { adoptJobs(for: target) }
        return try services.jobs.find(reference)
    }

    /// Runs one API call: gate check, budget admission (wait with a countdown or fail with 5),
    /// the call, then the ledger's bookkeeping for `timing` and the once-per-session deprecation warning.
    func call<T: Sendable>(
        as policy: CallPolicy,
        _ body: @Sendable (BooksTrackAPI) async throws -> APIResponse<T>
    ) async throws -> APIResponse<T> {
        let (budget, command) = (policy.budget, policy.label)
        if let gate = policy.gate { services.backendSession.prepare(for: gate.feature) }
        let api = try await backend().api
        services.backendSession.showsRetryLines.set(output.showsProgress)  // `set progress` applies at once
        try await policy.gate?.require(command: command, api: api)
        let response: APIResponse<T>
        // A spent budget is not waited for when the answer is in the cache (it spends none).
        if let budget, case .wait = await api.admission(for: budget),
            let cached = try? await BooksTrackAPI.$answersOnlyFromCache.withValue(
                true,
                operation: { try await body(api) }
            )
        {
            response = cached
        } else {
            if let budget { try await BudgetAdmission(output: output).admit(budget, api: api) }
            let spinner = Spinner.start(output: output, label: command)  // a terminal only, after 300 ms
            do {
                response = try await body(api)
                spinner?.stop()
            } catch {
                spinner?.stop()
                if (error as? BooksTrackError)?.kind == .timeout { currentMetrics.serverTimedOut = true }
                throw error
            }
        }
        if let warning = services.calls.record(response.info) { warn(warning) }
        noteOffline(response.info)
        if let budget {
            let state = await api.budget(for: budget)
            services.calls.record(budget, state)
        }
        return response
    }

    /// After each command: the last exchange of the requests it made becomes `$_http`; a command
    /// that made none leaves it as it was. Read without waiting for the client.
    func adoptLastExchange() {
        if let exchange = connection?.api.takeLastExchange() { lastExchange = exchange }
    }

    /// The running command's call metrics (reset per command; `timing`).
    var currentMetrics: CommandMetrics {
        get { services.calls.metrics }
        set { services.calls.metrics = newValue }
    }
}
