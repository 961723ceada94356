import BTSLanguage
import BTSTerminal
import BTSTerminalText
import Foundation

/// `every DURATION [--count N] [--fail] COMMAND…`: runs a command line again and again, each run
/// through the dispatcher (gates, budgets, the spinner), under a header with its time; on a
/// terminal each run replaces the last on the screen, elsewhere the runs follow one another.
struct EveryCommand: ShellCommand {
    static let result: CommandResult = .leavesResult

    /// The runs record their own cost; `every` itself is not a command to time.
    static let isMeasured = false
    /// It runs until Ctrl-C: its runs show as they come, never held for the pager.
    static let isPaged = false

    static let interval = ArgumentSpec(
        "DURATION",
        "How long to wait between runs, as sleep reads it: \(EveryPlan.minimumText) or more (2s, 1.5, 3m, 1h)",
        type: .duration
    )
    static let commandLine = ArgumentSpec(
        "COMMAND",
        "The command line to run; quote it whole to run several commands separated by ';'",
        variadic: true
    )
    static let countOption = OptionSpec(
        "count",
        type: .int(1...1_000_000),
        valueName: "N",
        help: "Stop after N runs (default: run until Ctrl-C)"
    )
    static let failOption = OptionSpec("fail", type: .flag, help: "Stop at the first failing run, with its status")

    static let configuration = CommandSpec(
        "every",
        group: .meta,
        summary: "Run a command every DURATION until Ctrl-C, with the time of each run",
        discussion: """
            Without --count it runs until Ctrl-C (every 5s limits). Each run goes through the shell as if \
            typed: capability gates, rate-limit budgets and the spinner apply, and $-references are read \
            anew. A header names the command and the time of the run; on a terminal each run clears the \
            screen and replaces the last one, in a pipe or a file the runs follow one another (each result \
            its own JSON document, the header on stderr). A failing run (an error, a refused budget) prints \
            its error and the next run comes after the interval; with --fail the first failure stops every \
            with its status. The options come before the command, so the command keeps its own. Ctrl-C \
            stops it (status 130).
            """,
        usage: ["every DURATION [--count N] [--fail] COMMAND..."],
        positionals: [interval, commandLine],
        options: [countOption, failOption],
        examples: ["every 2s --count 2 limits", "every 1s --count 3 jobs", "every 1s --count 2 'jobs; limits'"],
        takesRawArguments: true
    )

    /// The command is read anew at each run.
    static let interpolatesArguments = false

    static func problem(in command: Command) -> String? {
        switch plan(of: command) {
        case .success: return nil
        case .failure(let error): return error.sentence
        }
    }

    static func plan(of command: Command) -> Result<EveryPlan, EveryPlanError> {
        EveryPlan.parse(
            command.arguments.map { argument in
                let word = argument.word
                let script: String
                if let literal = word.literalText {
                    script = word.isQuoted ? AliasCommand.quoted(literal) : literal
                } else {
                    script = word.isQuoted ? "\"\(word.sourceForm)\"" : word.sourceForm
                }
                return EveryPlan.Word(literal: word.literalText, script: script, isQuoted: word.isQuoted)
            }
        )
    }

    var plan: EveryPlan

    init(_ resolved: ResolvedCommand) throws(ShellError) {
        switch Self.plan(of: resolved.command) {
        case .success(let plan): self.plan = plan
        case .failure(let error): throw ShellError(.usage, error.sentence)
        }
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        var runs = 0
        while true {
            try Task.checkCancellation()
            let output = context.output
            let header = plan.header(at: Self.clock.string(from: Date()))
            if output.terminal.stdoutIsTerminal {
                output.out(Self.clearScreen + TerminalText.sanitize(header, lines: .flatten) + "\n\n")
            } else {
                output.dimNote(header)
            }
            let status = try await context.runLine(plan.commandLine, name: "every \(plan.intervalText)")
            runs += 1
            if status == ExitStatus.interrupted.rawValue || Task.isCancelled {
                throw SilentFailure(status: ExitStatus.interrupted.rawValue)
            }
            if status != 0, plan.stopsOnFailure { throw SilentFailure(status: status) }
            if let count = plan.count, runs >= count { return nil }
            try await Task.sleep(for: plan.interval)
        }
    }

    /// Cursor home, then the screen erased.
    static let clearScreen = "\u{1B}[H\u{1B}[2J"

    /// The local time of a run, `07:31:02`.
    private static var clock: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss"
        return formatter
    }
}
