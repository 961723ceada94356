import BTSLanguage
import Foundation

extension ScriptRunner {
    /// Runs several sources (the `-c` arguments, a script, a line) as one run: all are checked
    /// first, and every syntax and usage error is reported (status 2) before anything runs; then
    /// they run in order, stopping at the first failure unless `onerror continue`.
    static func runSources<Host: ScriptHost>(
        _ sources: [(text: String, name: String)],
        directory: URL?,
        interactive: Bool,
        firstLine: Int,
        on host: isolated Host
    ) async -> Int32 {
        host.state.exitRequest = nil
        let directory = directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let checker = host.checker
        let checked = sources.map {
            checker.check(Parser.parse(SourceFile(name: $0.name, text: $0.text, firstLine: firstLine)))
        }
        var failed = false
        for script in checked where script.diagnostics.containsErrors {
            host.report(ShellError(diagnostics: script.diagnostics), in: script.source, interactive: interactive)
            failed = true
        }
        if failed {
            host.lastStatus = ExitStatus.usage.rawValue
            return host.lastStatus
        }
        var status: Int32 = 0
        for script in checked {
            let context = SourceContext(source: script.source, directory: directory, interactive: interactive)
            let sourceStatus = await execute(script.statements, context, on: host)
            if sourceStatus != 0 { status = sourceStatus }
            if let exit = host.state.exitRequest { return exit }
            if host.outputFailed { return status }
            if sourceStatus != 0, host.stopsOnError || sourceStatus == ExitStatus.interrupted.rawValue {
                return sourceStatus
            }
        }
        return status
    }

    /// Runs a script file in the session (`source`): all of it is checked first; a failing command
    /// has already reported itself, so only its status travels up.
    static func source<Host: ScriptHost>(
        _ url: URL,
        shownAs path: String,
        range: SourceRange?,
        arguments: [String]?,
        on host: isolated Host
    ) async throws {
        try host.state.enterNesting(
            ShellError(
                .usage,
                "'source' nested too deeply (\(InterpreterState.maxNesting) levels); is a script sourcing itself?"
            )
        )
        let text: String
        do throws(ScriptFile.Failure) {
            text = try ScriptFile.read(url.path)
        } catch {
            throw ShellError(.usage, error.sentence(path), range: range)
        }
        let script = host.checker.check(Parser.parse(SourceFile(name: url.path, text: text)))
        if script.diagnostics.containsErrors {
            host.report(ShellError(diagnostics: script.diagnostics), in: script.source, interactive: false)
            throw ShellError(.usage, "'\(path)' has errors; nothing in it ran")
        }
        host.state.sourceDepth += 1
        defer { host.state.sourceDepth -= 1 }
        let inner = SourceContext(source: script.source, directory: url.deletingLastPathComponent(), interactive: false)
        let outer = host.state.positionalArguments
        if let arguments { host.state.positionalArguments = arguments }
        defer { host.state.positionalArguments = outer }
        let status = await execute(script.statements, inner, on: host)
        if status != 0, host.state.exitRequest == nil {
            throw SilentFailure(status: status)
        }
    }

    /// Runs `text` as commands of the session (`every`'s line), checked first, as an alias's text
    /// runs (not paged, errors located in the line): a run's errors are reported here and its
    /// status returned; a line with errors throws, having said what is wrong.
    static func runLine<Host: ScriptHost>(_ text: String, name: String, on host: isolated Host) async throws -> Int32 {
        try host.state.enterNesting(
            ShellError(.usage, "'\(name)' nested too deeply (\(InterpreterState.maxNesting) levels)")
        )
        let script = host.checker.check(Parser.parse(SourceFile(name: name, text: text)))
        if script.diagnostics.containsErrors {
            host.report(ShellError(diagnostics: script.diagnostics), in: script.source, interactive: false)
            throw SilentFailure(status: ExitStatus.usage.rawValue)
        }
        host.state.sourceDepth += 1
        defer { host.state.sourceDepth -= 1 }
        let outer = host.state.currentSource
        let inner = SourceContext(
            source: script.source,
            directory: outer?.directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            interactive: false
        )
        return await execute(script.statements, inner, on: host)
    }
}

/// A failure already reported (by a sourced script's command): only the status travels up.
struct SilentFailure: Error, Sendable {
    var status: Int32
}
