import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import Foundation

extension Shell {
    /// `help [CMD [SUB]]`: from the registry; gated commands whose feature is known to be off are
    /// marked unavailable (help never opens a backend just to find out).
    func runHelp(_ command: ResolvedCommand) async throws -> CommandOutput? {
        let capabilities = await connection?.api.capabilities
        let renderer = HelpRenderer(registry: registry) { feature in
            capabilities?.isEnabled(CapabilityFeature(rawValue: feature)) ?? true
        }
        let path = command.strings("COMMAND")
        let text: String
        if path.isEmpty {
            text = renderer.overview()
        } else if let help = renderer.help(for: path) {
            text = help
        } else {
            throw ShellError(.usage, "no help for '\(path.joined(separator: " "))'")
        }
        return CommandOutput(value: .string(text), view: .text(text), setsResult: false)
    }

    /// Which shell commands each capability feature gates.
    static func gatedCommands() -> [String: [String]] {
        var map: [String: [String]] = [:]
        for (command, feature) in CommandGating.table {
            let name = command == "enrich-batch" ? "enrich (batch)" : command
            map[feature.rawValue, default: []].append(name)
        }
        return map.mapValues { $0.sorted() }
    }

    /// `caps [--refresh]`.
    func runCaps(_ command: ResolvedCommand) async throws -> CommandOutput? {
        let connection = try await backend()
        var result: ConnectResult?
        if command.flag("refresh") { result = await connection.api.connect(refresh: true) }
        let capabilities = await connection.api.capabilities
        let source = await connection.api.capabilitiesSource
        guard let capabilities else {
            var failure = result?.error
            if failure == nil { failure = await connection.api.lastConnectError }
            throw CapabilityAbsence(failure).shellError
        }
        let gates = Self.gatedCommands()
        let features = capabilities.features.keys.sorted().map { name in
            JSONValue.record([("name", name.json), ("enabled", .bool(capabilities.features[name] ?? false)),
                              ("gates", (gates[name] ?? []).json)])
        }
        var limits: [JSONValue] = []
        let limitPairs: [(String, Int?)] = [
            ("semantic_search_rpm", capabilities.limits.semanticSearchRPM), ("text_search_rpm", capabilities.limits.textSearchRPM),
            ("csv_max_rows", capabilities.limits.csvMaxRows), ("max_batch_size", capabilities.limits.maxBatchSize),
            ("max_concurrent_jobs", capabilities.limits.maxConcurrentJobs),
        ]
        for (name, value) in limitPairs { if let value { limits.append(.record([("name", name.json), ("value", value.json)])) } }
        let sourceText: String
        switch source {
        case .none: sourceText = "unknown"
        case .server: sourceText = "server"
        case .cache(let age): sourceText = "cache (\(age.components.seconds) s old)"
        case .staleCache(let age): sourceText = "stale cache (\(age.components.seconds) s old; server unreachable)"
        }
        let value = JSONValue.record([
            ("server", SecretMasking.maskURL(connection.api.baseURL.absoluteString).json), ("version", capabilities.version.json),
            ("dialect", capabilities.dialect.rawValue.json), ("source", sourceText.json),
            ("features", .array(features)), ("limits", .array(limits)),
        ])
        let view = ResultView.sections([
            .record(fields: ["server", "version", "source"].map { RecordField($0) }),
            .table(columns: [TableColumn("name", "FEATURE"), TableColumn("enabled", "ENABLED"),
                             TableColumn("gates", "GATES", flexible: true)], rowsKey: "features", footer: nil, empty: nil),
            .table(columns: [TableColumn("name", "LIMIT"), .number("value", "VALUE")], rowsKey: "limits", footer: nil, empty: nil),
        ])
        return CommandOutput(value: value, view: view)
    }

    /// `limits`: every budget with a bar and the time to its reset.
    func runLimits(_ command: ResolvedCommand) async throws -> CommandOutput? {
        let api = try await backend().api
        if await api.capabilities == nil, let failure = await api.lastConnectError, failure.category == .network {
            warn(CapabilityAbsence(failure).limitsNote)
        }
        let now = Date()
        let rows = await api.budgets().map { item -> JSONValue in
            let (name, budget) = item
            let until = [budget.blockedUntil, budget.resetAt].compactMap { $0 }.max()
            let resets = until.map { max(0, Int($0.timeIntervalSince(now).rounded(.up))) }
            return .record([
                ("class", name.rawValue.json), ("remaining", (budget.blockedUntil != nil ? 0 : budget.remaining).json),
                ("limit", budget.limit.json), ("resetsInSeconds", resets.json), ("source", budget.source.rawValue.json),
                ("blocked", .bool(budget.blockedUntil != nil)),
            ])
        }
        let value = JSONValue.record([("budgets", .array(rows))])
        let columns = [
            TableColumn("class", "CLASS"), TableColumn("remaining", "BUDGET", format: .bar(total: "limit")),
            .number("remaining", "LEFT"), .number("limit", "LIMIT"), .number("resetsInSeconds", "RESET (s)"),
            TableColumn("source", "SOURCE"),
        ]
        return CommandOutput(value: value, view: .table(columns: columns, rowsKey: "budgets", footer: nil, empty: nil))
    }

    /// `jobs`: this session's jobs.
    func runJobs() -> CommandOutput? {
        let value = JSONValue.record([("jobs", .array(jobs.map(\.json)))])
        let columns = [TableColumn("jobId", "JOB"), TableColumn("kind", "KIND"), TableColumn("status", "STATUS"),
                       .number("processedCount", "DONE"), .number("totalCount", "TOTAL"),
                       TableColumn("source", "SOURCE", flexible: true)]
        return CommandOutput(value: value, view: .table(columns: columns, rowsKey: "jobs", footer: nil,
                                                         empty: "No jobs started in this session."))
    }

    /// `connect URL|PROFILE|embedded`.
    func runConnect(_ command: ResolvedCommand) async throws -> CommandOutput? {
        let text = command.string("TARGET") ?? ""
        let target = try BackendSelection.target(forConnect: text, config: { () throws(ShellError) in try loadConfig() })
        let opened = try await open(target, requireReachable: !command.flag("force"))
        let capabilities = await opened.api.capabilities
        let value = JSONValue.record([
            ("server", SecretMasking.maskURL(opened.api.baseURL.absoluteString).json),
            ("target", SecretMasking.maskURL(target.label).json),
            ("version", capabilities?.version.json), ("capabilities", .bool(capabilities != nil)),
        ])
        if capabilities == nil {
            let absence = CapabilityAbsence(await opened.api.lastConnectError)
            warn(absence.isUnreachable
                ? "switched to \(SecretMasking.maskURL(target.label)), but it cannot be reached: \(absence.failure?.message ?? "")"
                : "connected to \(SecretMasking.maskURL(target.label)), but it did not publish its capabilities (gated commands will try anyway)")
        }
        return CommandOutput(value: value, view: .record(fields: ["server", "target", "version"].map { RecordField($0) }))
    }

    /// `set` (list), `set NAME VALUE` (a setting or a variable; a lone `${…}` keeps its structure).
    func runSet(_ command: ResolvedCommand) throws(ShellError) -> CommandOutput? {
        guard let name = command.string("NAME") else {
            var lines: [String] = []
            var settingValues: [String: JSONValue] = [:]
            for spec in registry.settings {
                let value = settings.value(of: spec.name) ?? ""
                settingValues[spec.name] = .string(value)
                lines.append("\(spec.name) = \(value)")
            }
            for key in variables.keys.sorted() {
                lines.append("$\(key) = \(variables[key]?.compactJSON ?? "")")
            }
            let value = JSONValue.record([("settings", .object(settingValues)), ("variables", .object(variables))])
            return CommandOutput(value: value, view: .text(lines.joined(separator: "\n")), setsResult: false)
        }
        guard let bound = command.values("VALUE").first, let text = bound.text else {
            throw ShellError(.usage, "missing VALUE for 'set \(name)'")
        }
        if registry.setting(named: name) != nil {
            guard settings.apply(name, text) else {
                throw ShellError(.usage, "invalid value '\(text)' for setting '\(name)'", range: bound.word.range)
            }
            return nil
        }
        switch value(of: bound.word) {
        case .success(let value): variables[name] = value
        case .failure(let error): throw error
        }
        return nil
    }

    /// `echo WORD…`: the words, interpolated, on stdout.
    func runEcho(_ command: ResolvedCommand) -> CommandOutput? {
        out(command.strings("WORD").joined(separator: " ") + "\n")
        return nil
    }

    /// `sleep DURATION` (Ctrl-C interrupts it).
    func runSleep(_ command: ResolvedCommand) async throws -> CommandOutput? {
        guard case .duration(let duration)? = command.values("DURATION").first?.value else {
            throw ShellError(.usage, "sleep needs a duration such as 500ms, 2s or 1m")
        }
        try await Task.sleep(for: duration)
        return nil
    }

    /// `source FILE`: runs a script in this session (relative to the current script's directory).
    func runSource(_ command: ResolvedCommand, _ context: SourceContext) async throws -> CommandOutput? {
        let path = command.string("FILE") ?? ""
        let url = resolvePath(path, in: context)
        guard sourceDepth < 16 else { throw ShellError(.usage, "'source' nested too deeply (16 levels); is a script sourcing itself?") }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ShellError(.usage, "cannot read '\(path)': no such file or not readable",
                             range: command.values("FILE").first?.word.range)
        }
        let parsed = Parser.parse(SourceFile(name: url.path, text: String(decoding: data, as: UTF8.self)))
        let diagnostics = check(parsed)
        if diagnostics.containsErrors {
            report(ShellError(diagnostics: diagnostics), in: parsed.source, interactive: false)
            throw ShellError(.usage, "'\(path)' has errors; nothing in it ran")
        }
        sourceDepth += 1
        defer { sourceDepth -= 1 }
        let inner = SourceContext(source: parsed.source, directory: url.deletingLastPathComponent(), interactive: false)
        let status = await execute(parsed.script.commands, inner)
        if status != 0, exitRequest == nil {
            // The failing command already reported itself; just propagate the status.
            throw SilentFailure(status: status)
        }
        return nil
    }

    /// `history`: the saved interactive history, numbered.
    func runHistory() -> CommandOutput? {
        let entries = options.history?.entries ?? []
        let width = String(entries.count).count
        let text = entries.enumerated().map { index, line in
            String(repeating: " ", count: width - String(index + 1).count) + "\(index + 1)  \(line)"
        }.joined(separator: "\n")
        if entries.isEmpty, options.history == nil { note("no history is kept outside the interactive shell") }
        return CommandOutput(value: .array(entries.map(JSONValue.string)), view: .text(text), setsResult: false)
    }

    /// `timing [on|off]`: toggles (or sets) the per-command display and shows the last command's cost.
    func runTiming(_ command: ResolvedCommand) -> CommandOutput? {
        if let state = command.string("STATE") {
            settings.timing = state == "on"
        } else {
            settings.timing.toggle()
        }
        note("timing is \(settings.timing ? "on" : "off"); last command: \(lastMetrics.summary)")
        return CommandOutput(value: lastMetrics.json, view: .none, setsResult: false)
    }

    /// `exit [CODE]`: leave with CODE, or the last command's status.
    func runExit(_ command: ResolvedCommand) -> CommandOutput? {
        exitRequest = command.values("CODE").first?.value?.intValue.map { Int32($0) } ?? lastStatus
        return nil
    }
}

/// A failure already reported (by a sourced script's command): only the status travels up.
struct SilentFailure: Error, Sendable {
    var status: Int32
}
