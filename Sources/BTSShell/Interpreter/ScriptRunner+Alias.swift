import BTSLanguage
import Foundation

extension ScriptRunner {
    /// Runs an alias call: its text (``AliasCall``), checked now, with the call's words as
    /// `$1..$n` (or appended when the text reads none of them). Errors are reported here; the
    /// status is returned.
    static func runAlias<Host: ScriptHost>(
        _ command: Command,
        _ context: SourceContext,
        on host: isolated Host
    ) async -> Int32 {
        let name = command.nameText
        let scope = host.scope
        do {
            guard let body = host.state.aliases[name] else {
                throw ShellError(diagnostics: [host.registry.unknownCommand(name, range: command.name.range)])
            }
            try host.state.enterNesting(
                ShellError(
                    .usage,
                    "alias '\(name)' nested too deeply (\(InterpreterState.maxNesting) levels); does it call itself?",
                    range: command.name.range
                )
            )
            let call = try AliasCall(body: body, arguments: command.arguments, scope: scope)
            let script = host.checker.check(Parser.parse(SourceFile(name: "alias \(name)", text: call.text)))
            if script.diagnostics.containsErrors {
                host.report(ShellError(diagnostics: script.diagnostics), in: script.source, interactive: false)
                throw ShellError(.usage, "alias '\(name)' has errors; nothing in it ran", range: command.name.range)
            }
            let outer = host.state.positionalArguments
            if let words = call.positionalArguments { host.state.positionalArguments = words }
            host.state.sourceDepth += 1
            defer {
                host.state.sourceDepth -= 1
                host.state.positionalArguments = outer
            }
            var status: Int32 = 0
            try await host.withRedirection(command.redirection, option: nil) {
                let inner = SourceContext(source: script.source, directory: context.directory, interactive: false)
                status = await execute(script.statements, inner, on: host)
            }
            host.lastStatus = status
            return status
        } catch let failure as SilentFailure {
            host.lastStatus = failure.status
            return failure.status
        } catch {
            let shellError = ShellError.from(error, range: command.range)
            host.report(shellError, in: context.source, interactive: context.interactive)
            host.lastStatus = shellError.status.rawValue
            return host.lastStatus
        }
    }
}
