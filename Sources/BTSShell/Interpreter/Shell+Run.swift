import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import Foundation

/// Where the commands being run come from.
struct SourceContext: Sendable {
    var source: SourceFile
    /// The directory `source FILE` and relative paths of a script resolve against.
    var directory: URL
    /// Typed at the prompt: errors show without `file:line:col`.
    var interactive: Bool
}

/// What a command printed and what becomes `$_`.
struct CommandOutput: Sendable {
    var value: JSONValue
    var view: ResultView
    /// Whether the value becomes `$_` (data commands yes; echo, set, expect… no).
    var setsResult = true
}

extension Shell {
    /// Runs `text` as a script named `name`: every syntax and usage error is reported (with
    /// carets) before anything runs (status 2); then the commands run in order, stopping at the
    /// first failure unless `onerror continue`. Returns the exit status.
    public func run(_ text: String, name: String, directory: URL? = nil, interactive: Bool = false) async -> Int32 {
        await runSources([(text, name)], directory: directory, interactive: interactive)
    }

    /// Runs several sources (the `-c` arguments) as one run: all are checked first.
    public func runSources(_ sources: [(text: String, name: String)], directory: URL? = nil,
                           interactive: Bool = false) async -> Int32 {
        exitRequest = nil
        let directory = directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let parsed = sources.map { Parser.parse(SourceFile(name: $0.name, text: $0.text)) }
        var failed = false
        for result in parsed {
            let diagnostics = check(result)
            if diagnostics.containsErrors {
                report(ShellError(diagnostics: diagnostics), in: result.source, interactive: false)
                failed = true
            }
        }
        if failed {
            lastStatus = ExitStatus.usage.rawValue
            return lastStatus
        }
        var status: Int32 = 0
        for result in parsed {
            let context = SourceContext(source: result.source, directory: directory, interactive: interactive)
            let sourceStatus = await execute(result.script.commands, context)
            if sourceStatus != 0 { status = sourceStatus }
            if let exit = exitRequest { return exit }
            if sourceStatus != 0, stopsOnError || sourceStatus == ExitStatus.interrupted.rawValue { return sourceStatus }
        }
        return status
    }

    /// Runs a script file (`bts FILE.bts`): relative `source` paths resolve against its directory.
    public func runFile(_ url: URL) async -> Int32 {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            report(ShellError(.usage, "cannot read script '\(url.path)'"), in: nil, interactive: false)
            return ExitStatus.usage.rawValue
        }
        let text = String(decoding: data, as: UTF8.self)
        return await run(text, name: url.path, directory: url.deletingLastPathComponent())
    }

    var stopsOnError: Bool { settings.onError == .stop && !options.continueOnError }

    /// Syntax errors plus the registry's validation of every command.
    func check(_ parsed: ParseResult) -> [Diagnostic] {
        (parsed.diagnostics + registry.check(parsed.script)).sorted { $0.range.offset < $1.range.offset }
    }

    /// Runs commands in order. A failure stops them unless errors are to be continued past.
    /// The status is the first failure's when it stopped the run, else the status of a failure
    /// passed over only because of `--continue-on-error` (like hurl), else that of the last
    /// command (like sh: a script that said `set onerror continue` checks `$?` itself).
    func execute(_ commands: [Command], _ context: SourceContext) async -> Int32 {
        var last: Int32 = 0
        var remembered: Int32?
        for command in commands {
            if Task.isCancelled { return ExitStatus.interrupted.rawValue }
            let result = await execute(command, context)
            if exitRequest != nil { return result }
            if result != 0 {
                if result == ExitStatus.interrupted.rawValue || stopsOnError { return result }
                if settings.onError == .stop { remembered = result }
            }
            last = result
        }
        return remembered ?? last
    }

    /// Runs one command, reports its error, updates `$?`, `$_` and the timing.
    func execute(_ command: Command, _ context: SourceContext) async -> Int32 {
        let clock = ContinuousClock()
        let started = clock.now
        currentMetrics = CommandMetrics()
        var status: Int32 = 0
        do {
            try await perform(command, context)
        } catch let failure as SilentFailure {
            status = failure.status
        } catch {
            let shellError = Self.shellError(from: error, range: command.range)
            status = shellError.status.rawValue
            if shellError.status == .interrupted {
                note(shellError.message)
            } else {
                report(shellError, in: context.source, interactive: context.interactive)
            }
            lastResult = .record([
                ("error", .record([("code", shellError.code.json), ("message", shellError.message.json),
                                   ("status", Int(shellError.status.rawValue).json)])),
            ])
        }
        let name = command.nameText
        if name != "timing" {
            currentMetrics.elapsed = clock.now - started
            lastMetrics = currentMetrics
            if settings.timing { note(ANSIStyle.dim.apply(lastMetrics.summary, enabled: colored(.standardError))) }
        }
        lastStatus = status
        return status
    }

    /// Any error as a `ShellError`; cancellation becomes "interrupted" (130).
    static func shellError(from error: any Error, range: SourceRange) -> ShellError {
        if Task.isCancelled { return .interrupted() }
        switch error {
        case let error as ShellError:
            var located = error
            if located.range == nil, located.diagnostics.isEmpty { located.range = range }
            return located
        case let error as BooksTrackError:
            if error.isCancellation { return .interrupted() }
            return ShellError(error, range: range)
        case is CancellationError:
            return .interrupted()
        default:
            return ShellError(.failure, "\(error)", range: range)
        }
    }

    /// Resolves, interpolates and dispatches one command.
    func perform(_ command: Command, _ context: SourceContext) async throws {
        var resolved: ResolvedCommand
        switch registry.resolve(command) {
        case .success(let value): resolved = value
        case .failure(let diagnostics): throw ShellError(diagnostics: diagnostics.all)
        }
        let root = resolved.path[0]
        // `expect` and `set` read variables themselves (structured values, missing paths → exit 4).
        if root != "expect" {
            resolved = try finish(resolved)
        }
        var format = outputFormat
        var explicit = settings.output != nil
        if resolved.options["output"] != nil, let name = resolved.optionString("output"),
           let chosen = OutputFormat(rawValue: name) {
            format = chosen
            explicit = true
        }
        guard let output = try await dispatch(resolved, context) else { return }
        if output.setsResult { lastResult = output.value }
        // Text (help, history, `set`) stays text on a pipe unless a format was asked for.
        if case .text = output.view, !explicit { format = .table }
        emit(output.value, output.view, format: format)
    }

    func dispatch(_ command: ResolvedCommand, _ context: SourceContext) async throws -> CommandOutput? {
        switch command.path[0] {
        case "search": return try await runSearch(command)
        case "similar": return try await runSimilar(command)
        case "semantic": return try await runSemantic(command)
        case "enrich": return try await runEnrich(command, context)
        case "import": return try await runImport(command, context)
        case "watch": return try await runWatch(command)
        case "recommend": return try await runRecommend(command)
        case "help": return try await runHelp(command)
        case "caps": return try await runCaps(command)
        case "limits": return try await runLimits(command)
        case "jobs": return runJobs()
        case "status": return try await runStatus(command)
        case "results": return try await runResults(command)
        case "cancel": return try await runCancel(command)
        case "connect": return try await runConnect(command)
        case "set": return try runSet(command)
        case "echo": return runEcho(command)
        case "sleep": return try await runSleep(command)
        case "source": return try await runSource(command, context)
        case "expect": return try runExpect(command)
        case "history": return runHistory()
        case "timing": return runTiming(command)
        case "exit": return runExit(command)
        default:
            throw ShellError(.usage, "'\(command.displayName)' is not implemented", range: command.command.name.range)
        }
    }
}
