import BTSLanguage
import BooksTrackContract
import Foundation

/// Runs checked statements in a session (its ``ScriptHost``): commands in order, `if`/`elif`/`else`,
/// `while` (bounded by `set looplimit`), `for`, `break`/`continue`, alias calls
/// (`ScriptRunner+Alias.swift`) and whole sources (`ScriptRunner+Sources.swift`). Each function
/// runs isolated to the host, as the session's own code would.
enum ScriptRunner {
    /// Runs statements in order. A failure stops them unless errors are to be continued past.
    /// The status is the first failure's when it stopped the run, else the status of a failure
    /// passed over only because of `--continue-on-error` (like hurl), else that of the last
    /// command (like sh: a script that said `set onerror continue` checks `$?` itself).
    static func execute<Host: ScriptHost>(
        _ statements: [CheckedStatement],
        _ context: SourceContext,
        on host: isolated Host
    ) async -> Int32 {
        // Relative paths of loops and redirections resolve against this source's directory.
        let previous = host.state.currentSource
        host.state.currentSource = context
        defer { host.state.currentSource = previous }
        var tally = RunTally()
        let flow = await run(statements, context, &tally, on: host)
        return tally.status(after: flow)
    }

    private static func run<Host: ScriptHost>(
        _ statements: [CheckedStatement],
        _ context: SourceContext,
        _ tally: inout RunTally,
        on host: isolated Host
    ) async -> BlockFlow {
        for statement in statements {
            if Task.isCancelled {
                tally.last = ExitStatus.interrupted.rawValue
                return .stop
            }
            switch statement {
            case .command(let resolved):
                if let flow = record(await host.execute(resolved, context), &tally, on: host) { return flow }
            case .alias(let command):
                if let flow = record(await runAlias(command, context, on: host), &tally, on: host) { return flow }
            case .control(let kind):
                return kind == .break ? .breakLoop : .continueLoop
            case .conditional(let branches, let elseBody):
                var chosen = elseBody
                for branch in branches {
                    let outcome = test(branch.condition, context, on: host)
                    if let status = outcome.failure {
                        if let flow = record(status, &tally, on: host) { return flow }
                        chosen = nil
                        break
                    }
                    if outcome.passed {
                        chosen = branch.body
                        break
                    }
                }
                if let chosen {
                    let flow = await run(chosen, context, &tally, on: host)
                    if flow != .next { return flow }
                }
            case .whileLoop(let condition, let body):
                if let flow = await runWhile(condition, body, context, &tally, on: host) { return flow }
            case .loop(let loop, let body):
                if let flow = await runFor(loop, body, context, &tally, on: host) { return flow }
            }
        }
        return .next
    }

    /// A `while` loop; the flow to leave the statements with when it ends them.
    private static func runWhile<Host: ScriptHost>(
        _ condition: Command,
        _ body: [CheckedStatement],
        _ context: SourceContext,
        _ tally: inout RunTally,
        on host: isolated Host
    ) async -> BlockFlow? {
        var rounds = 0
        while true {
            if Task.isCancelled {
                tally.last = ExitStatus.interrupted.rawValue
                return .stop
            }
            let outcome = test(condition, context, on: host)
            if let status = outcome.failure {
                if let flow = record(status, &tally, on: host) { return flow }
                break
            }
            guard outcome.passed else { break }
            guard rounds < host.settings.loopLimit else {
                let error = loopLimitError(rounds: rounds, condition: condition)
                host.report(error, in: context.source, interactive: context.interactive)
                host.lastStatus = error.status.rawValue
                if let flow = record(error.status.rawValue, &tally, on: host) { return flow }
                break
            }
            rounds += 1
            let flow = await run(body, context, &tally, on: host)
            if flow == .stop { return .stop }
            if flow == .breakLoop { break }
        }
        return nil
    }

    /// A `for` loop; the flow to leave the statements with when it ends them.
    private static func runFor<Host: ScriptHost>(
        _ loop: ForLoop,
        _ body: [CheckedStatement],
        _ context: SourceContext,
        _ tally: inout RunTally,
        on host: isolated Host
    ) async -> BlockFlow? {
        let items: [JSONValue]
        switch host.scope.loopItems(loop, resolvingPaths: { host.resolvePath($0) }) {
        case .success(let found): items = found
        case .failure(let error):
            host.report(error, in: context.source, interactive: context.interactive)
            host.lastStatus = error.status.rawValue
            return record(error.status.rawValue, &tally, on: host)
        }
        for item in items {
            if Task.isCancelled {
                tally.last = ExitStatus.interrupted.rawValue
                return .stop
            }
            host.variables[loop.variable] = item
            let flow = await run(body, context, &tally, on: host)
            if flow == .stop { return .stop }
            if flow == .breakLoop { break }
        }
        return nil
    }

    /// The error of a `while` loop stopped by `set looplimit`.
    static func loopLimitError(rounds: Int, condition: Command) -> ShellError {
        ShellError(
            .failure,
            "'while' stopped after \(rounds) rounds (the loop limit): its condition never became false",
            range: condition.range,
            details: ["'set looplimit N' allows more rounds"],
            code: .loopLimit
        )
    }

    /// Books a command's status; the flow to leave with when it ends the run.
    private static func record<Host: ScriptHost>(
        _ status: Int32,
        _ tally: inout RunTally,
        on host: isolated Host
    ) -> BlockFlow? {
        tally.record(
            status,
            mustStop: host.state.exitRequest != nil || host.state.unwindsNesting || host.outputFailed,
            stopsOnError: host.stopsOnError,
            onError: host.settings.onError
        )
    }

    /// Evaluates an `if`/`elif` condition (as `expect` would, without failing): true, false, or
    /// the status of an error already reported. `$?` is left as it was.
    private static func test<Host: ScriptHost>(
        _ condition: Command,
        _ context: SourceContext,
        on host: isolated Host
    ) -> (passed: Bool, failure: Int32?) {
        do {
            return (try host.holds(condition), nil)
        } catch {
            let shellError = ShellError.from(error, range: condition.range)
            host.report(shellError, in: context.source, interactive: context.interactive)
            return (false, shellError.status.rawValue)
        }
    }
}

extension ErrorCode {
    /// A `while` loop ran more rounds than `set looplimit` allows.
    static let loopLimit: ErrorCode = "LOOP_LIMIT"
}
