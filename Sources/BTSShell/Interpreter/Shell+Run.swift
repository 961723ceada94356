import BTSLanguage
import BTSTerminalText
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
    package func run(_ text: String, name: String, directory: URL? = nil, interactive: Bool = false) async -> Int32 {
        await runSources([(text, name)], directory: directory, interactive: interactive)
    }

    /// Runs several sources (the `-c` arguments) as one run: all are checked first.
    package func runSources(
        _ sources: [(text: String, name: String)],
        directory: URL? = nil,
        interactive: Bool = false,
        firstLine: Int = 1
    ) async -> Int32 {
        await ScriptRunner.runSources(
            sources,
            directory: directory,
            interactive: interactive,
            firstLine: firstLine,
            on: self
        )
    }

    /// Runs a script file (`bts FILE.bts`): relative `source` paths resolve against its directory.
    /// Errors name it `shownAs` (default: its full path).
    package func runFile(_ url: URL, shownAs name: String? = nil) async -> Int32 {
        let text: String
        do throws(ScriptFile.Failure) {
            text = try ScriptFile.read(url.path)
        } catch {
            report(
                ShellError(
                    .usage,
                    error.sentence(url.path, "cannot read script"),
                    details: ScriptFile.commandHint(
                        for: url,
                        word: options.scriptName,
                        arguments: options.scriptArguments,
                        registry: registry
                    )
                ),
                in: nil,
                interactive: false
            )
            return ExitStatus.usage.rawValue
        }
        return await run(text, name: name ?? url.path, directory: url.deletingLastPathComponent())
    }

    var stopsOnError: Bool { settings.onError == .stop && !options.continueOnError }

    /// Runs one command, reports its error, updates `$?`, `$_` and the timing.
    func execute(_ resolved: ResolvedCommand, _ context: SourceContext) async -> Int32 {
        let command = resolved.command
        let clock = ContinuousClock()
        let started = clock.now
        currentMetrics = CommandMetrics()
        if resolved.type == ExpectCommand.self { expectationsRun += 1 }
        var status: Int32 = 0
        do {
            let option =
                resolved.bound(CommandRegistry.outputOption) != nil
                ? resolved.string(CommandRegistry.outputOption).flatMap(OutputFormat.init(rawValue:)) : nil
            if command.redirection == nil, resolved.type?.isPaged ?? true, pages(context) {
                try await withPager { try await perform(resolved, context) }
            } else {
                try await withRedirection(command.redirection, option: option) {
                    try await perform(resolved, context)
                }
            }
        } catch let failure as SilentFailure {
            status = failure.status
        } catch {
            let shellError = ShellError.from(error, range: command.range)
            status = shellError.status.rawValue
            if shellError.status == .interrupted {
                note(shellError.message)
            } else {
                report(shellError, in: context.source, interactive: context.interactive)
            }
            lastResult = shellError.result
        }
        adoptLastExchange()
        if resolved.type?.isMeasured ?? true {
            currentMetrics.elapsed = clock.now - started
            lastMetrics = currentMetrics
            if settings.timing { output.dimNote(lastMetrics.summary) }
        }
        lastStatus = status
        return status
    }

    /// Interpolates and runs one resolved command through the dispatch table, then prints its
    /// output and sets `$_`.
    func perform(_ command: ResolvedCommand, _ context: SourceContext) async throws {
        let route = command.route.types
        guard let type = route.last else {
            throw ShellError(.usage, "'\(command.displayName)' is not implemented", range: command.command.name.range)
        }
        var resolved = command
        if type.interpolatesArguments {
            let scope = self.scope
            resolved = try scope.finishing(scope.expandingLists(command, registry: registry), registry: registry)
        }
        // The command's own `--output` wins; else the format in effect (one rule for every destination).
        let chosen =
            resolved.bound(CommandRegistry.outputOption) != nil
            ? resolved.string(CommandRegistry.outputOption).flatMap(OutputFormat.init(rawValue:)) : nil
        let (previous, previousPolicy) = (state.currentSource, services.callPolicy)
        state.currentSource = context
        services.callPolicy = CallPolicy(route: route, label: command.displayName)
        defer { (state.currentSource, services.callPolicy) = (previous, previousPolicy) }
        guard let ran = try await applyingCacheOption(resolved, { try await type.init(resolved).run(in: self) })
        else { return }
        let result = OfflineAnswer.annotating(ran, age: currentMetrics.offlineAge)
        if result.setsResult { lastResult = result.value }
        output.emit(result.value, result.view.selectingColumns(resolved.chosenColumns), format: chosen)
    }
}

/// A script checked against the registry: its statements with every command resolved, or what
/// is wrong with it.
struct CheckedScript: Sendable {
    var source: SourceFile
    var statements: [CheckedStatement]
    var diagnostics: [Diagnostic]
}
