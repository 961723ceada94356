import BTSLanguage
import BooksTrackContract
import Foundation

/// How a list of statements ended.
enum BlockFlow: Sendable, Equatable {
    case next, breakLoop, continueLoop, stop
}

/// The statuses seen while running (see ``Shell/execute(_:_:)``).
struct RunTally: Sendable {
    var last: Int32 = 0
    var remembered: Int32?
}

extension Shell {
    /// The whole-script check with this session's registry and the aliases it has defined so far
    /// (``ScriptChecker``); each command is resolved there, once (it runs as resolved).
    func check(_ parsed: ParseResult) -> CheckedScript {
        checker.check(parsed)
    }

    /// The checker of this session: its registry and the aliases defined so far.
    var checker: ScriptChecker { ScriptChecker(registry: registry, aliases: Set(state.aliases.keys)) }

    /// Runs statements in order. A failure stops them unless errors are to be continued past.
    /// The status is the first failure's when it stopped the run, else the status of a failure
    /// passed over only because of `--continue-on-error` (like hurl), else that of the last
    /// command (like sh: a script that said `set onerror continue` checks `$?` itself).
    func execute(_ statements: [CheckedStatement], _ context: SourceContext) async -> Int32 {
        // Relative paths of loops and redirections resolve against this source's directory.
        let previous = state.currentSource
        state.currentSource = context
        defer { state.currentSource = previous }
        var tally = RunTally()
        let flow = await run(statements, context, &tally)
        if flow == .stop { return tally.last }
        return tally.remembered ?? tally.last
    }

    private func run(
        _ statements: [CheckedStatement],
        _ context: SourceContext,
        _ tally: inout RunTally
    ) async -> BlockFlow {
        for statement in statements {
            if Task.isCancelled {
                tally.last = ExitStatus.interrupted.rawValue
                return .stop
            }
            switch statement {
            case .command(let resolved):
                if let flow = record(await execute(resolved, context), &tally) { return flow }
            case .alias(let command):
                if let flow = record(await runAlias(command, context), &tally) { return flow }
            case .control(let kind):
                return kind == .break ? .breakLoop : .continueLoop
            case .conditional(let branches, let elseBody):
                var chosen = elseBody
                for branch in branches {
                    let outcome = test(branch.condition, context)
                    if let status = outcome.failure {
                        if let flow = record(status, &tally) { return flow }
                        chosen = nil
                        break
                    }
                    if outcome.passed {
                        chosen = branch.body
                        break
                    }
                }
                if let chosen {
                    let flow = await run(chosen, context, &tally)
                    if flow != .next { return flow }
                }
            case .whileLoop(let condition, let body):
                var rounds = 0
                while true {
                    if Task.isCancelled {
                        tally.last = ExitStatus.interrupted.rawValue
                        return .stop
                    }
                    let outcome = test(condition, context)
                    if let status = outcome.failure {
                        if let flow = record(status, &tally) { return flow }
                        break
                    }
                    guard outcome.passed else { break }
                    guard rounds < settings.loopLimit else {
                        let error = ShellError(
                            .failure,
                            "'while' stopped after \(rounds) rounds (the loop limit): its condition never became false",
                            range: condition.range,
                            details: ["'set looplimit N' allows more rounds"],
                            code: .loopLimit
                        )
                        report(error, in: context.source, interactive: context.interactive)
                        lastStatus = error.status.rawValue
                        if let flow = record(error.status.rawValue, &tally) { return flow }
                        break
                    }
                    rounds += 1
                    let flow = await run(body, context, &tally)
                    if flow == .stop { return .stop }
                    if flow == .breakLoop { break }
                }
            case .loop(let loop, let body):
                let items: [JSONValue]
                switch scope.loopItems(loop, resolvingPaths: resolvePath) {
                case .success(let found): items = found
                case .failure(let error):
                    report(error, in: context.source, interactive: context.interactive)
                    lastStatus = error.status.rawValue
                    if let flow = record(error.status.rawValue, &tally) { return flow }
                    continue
                }
                for item in items {
                    if Task.isCancelled {
                        tally.last = ExitStatus.interrupted.rawValue
                        return .stop
                    }
                    variables[loop.variable] = item
                    let flow = await run(body, context, &tally)
                    if flow == .stop { return .stop }
                    if flow == .breakLoop { break }
                }
            }
        }
        return .next
    }

    /// Books a command's status; the flow to leave with when it ends the run.
    private func record(_ status: Int32, _ tally: inout RunTally) -> BlockFlow? {
        tally.last = status
        if state.exitRequest != nil || state.unwindsNesting || outputFailed { return .stop }
        if status != 0 {
            if status == ExitStatus.interrupted.rawValue || stopsOnError { return .stop }
            if settings.onError == .stop { tally.remembered = status }
        }
        return nil
    }

    /// Evaluates an `if`/`elif` condition (as `expect` would, without failing): true, false, or
    /// the status of an error already reported. `$?` is left as it was.
    private func test(_ condition: Command, _ context: SourceContext) -> (passed: Bool, failure: Int32?) {
        do {
            let words = condition.arguments.map(\.word)
            return (
                try ExpectCommand.evaluate(words, what: condition.nameText, range: condition.range, in: self).passed,
                nil
            )
        } catch {
            let shellError = ShellError.from(error, range: condition.range)
            report(shellError, in: context.source, interactive: context.interactive)
            return (false, shellError.status.rawValue)
        }
    }

    /// A command whose words include a list (`${…[*]…}`, `$@`) where it takes several words: the
    /// lists become one word each per element, and the command is resolved again.
    func expandLists(_ resolved: ResolvedCommand) throws(ShellError) -> ResolvedCommand {
        let command = resolved.command
        guard command.arguments.contains(where: { $0.word.listReference != nil }),
            resolved.spec.takesRawArguments || resolved.spec.positionals.contains(where: \.isVariadic)
        else { return resolved }
        var arguments: [Argument] = []
        let scope = self.scope
        for argument in command.arguments {
            guard argument.word.listReference != nil else {
                arguments.append(argument)
                continue
            }
            let words: [String]
            switch scope.words(of: argument.word) {
            case .success(let found): words = found
            case .failure(let error): throw error
            }
            for text in words {
                arguments.append(
                    Argument(
                        word: Word(literal: text, range: argument.word.range, isQuoted: true),
                        kind: .positional
                    )
                )
            }
        }
        var expanded = command
        expanded.arguments = arguments
        switch registry.resolve(expanded) {
        case .success(let again): return again
        case .failure(let diagnostics): throw ShellError(diagnostics: diagnostics.all)
        }
    }
}

extension ErrorCode {
    /// A `while` loop ran more rounds than `set looplimit` allows.
    static let loopLimit: ErrorCode = "LOOP_LIMIT"
}

extension Shell {
    /// Runs an alias call: its text, checked now, with the call's words as `$1..$n` (or appended
    /// when the text reads none of them). Errors are reported here; the status is returned.
    func runAlias(_ command: Command, _ context: SourceContext) async -> Int32 {
        let name = command.nameText
        let scope = self.scope
        do {
            guard let body = state.aliases[name] else {
                throw ShellError(diagnostics: [registry.unknownCommand(name, range: command.name.range)])
            }
            try state.enterNesting(
                ShellError(
                    .usage,
                    "alias '\(name)' nested too deeply (\(InterpreterState.maxNesting) levels); does it call itself?",
                    range: command.name.range
                )
            )
            var words: [String] = []
            // Appended as written: a bare word stays bare, so an option given to the alias
            // (`hg --limit 1`) is an option (quoted, it would be searched for as a title word); a
            // quoted word, or a variable's value, stays one quoted word.
            var appended: [String] = []
            for argument in command.arguments {
                switch scope.words(of: argument.word) {
                case .success(let found):
                    words += found
                    let plain = argument.word.literalText != nil && !argument.word.isQuoted
                    appended += found.map { plain ? ScriptWords.quoted($0) : AliasCommand.quoted($0) }
                case .failure(let error): throw error
                }
            }
            let readsArguments = AliasCommand.readsArguments(body)
            var text = body
            if !readsArguments, !appended.isEmpty {
                text += " " + appended.joined(separator: " ")
            }
            let script = check(Parser.parse(SourceFile(name: "alias \(name)", text: text)))
            if script.diagnostics.containsErrors {
                report(ShellError(diagnostics: script.diagnostics), in: script.source, interactive: false)
                throw ShellError(.usage, "alias '\(name)' has errors; nothing in it ran", range: command.name.range)
            }
            let outer = state.positionalArguments
            if readsArguments { state.positionalArguments = words }
            state.sourceDepth += 1
            defer {
                state.sourceDepth -= 1
                state.positionalArguments = outer
            }
            var status: Int32 = 0
            try await withRedirection(command.redirection, option: nil) {
                let inner = SourceContext(source: script.source, directory: context.directory, interactive: false)
                status = await execute(script.statements, inner)
            }
            lastStatus = status
            return status
        } catch let failure as SilentFailure {
            lastStatus = failure.status
            return failure.status
        } catch {
            let shellError = ShellError.from(error, range: command.range)
            report(shellError, in: context.source, interactive: context.interactive)
            lastStatus = shellError.status.rawValue
            return lastStatus
        }
    }
}
