import BTSLanguage
import BooksTrackClient
import BooksTrackContract

/// One shell command, one type (swift-argument-parser's `ParsableCommand` way): its spec (names,
/// arguments, options, help, examples), its capability gate, its rate-limit budget, its typed
/// arguments (read once from the resolved command in `init`) and `run`. Help, completion,
/// validation, gating and the README's reference all read ``CommandTable/all``.
protocol ShellCommand: Sendable {
    /// Names, arguments, options, help and examples. Gate and budget are added from
    /// ``gate`` and ``budget``, the subcommands' specs from ``subcommands`` (stated only there).
    static var configuration: CommandSpec { get }
    /// The subcommands, each a type of its own, in the order help lists them
    /// (swift-argument-parser's `subcommands:`). Dispatch follows the resolved path through these
    /// types by their own names, so a subcommand cannot run as another.
    static var subcommands: [any ShellCommand.Type] { get }
    /// The server feature that must be on for the command (or part of it) to run.
    static var gate: CommandGate? { get }
    /// The rate-limit class the command spends.
    static var budget: RateLimitClass? { get }
    /// What the command leaves in `$_` (no default: every command states it; ``CommandResults``
    /// reads it by path, and a test runs every command and holds its value to it).
    static var result: CommandResult { get }
    /// Whether deferred `$var` values are interpolated before `init` (`expect` reads them itself).
    static var interpolatesArguments: Bool { get }
    /// Whether the command's cost is recorded for `timing` (not `timing` itself).
    static var isMeasured: Bool { get }
    /// Whether its output at the prompt may go through the pager (not a command that runs until Ctrl-C).
    static var isPaged: Bool { get }

    /// What is wrong with the command's words beyond what its spec says, found when a script is
    /// checked, before anything runs (`expect`'s grammar); nil when nothing is.
    static func problem(in command: Command) -> String?

    /// ``problem(in:)`` as the check reports it for `source`, where the command was read: a
    /// command may point into its words and attach a fix (`expect $n==6`); nil when nothing is wrong.
    static func diagnostic(in command: Command, source: SourceFile) -> Diagnostic?

    /// The typed arguments, read from the command as resolved against ``configuration``.
    init(_ resolved: ResolvedCommand) throws(ShellError)

    /// Runs the command; nil when it prints nothing (its own output went to the sink).
    func run(in context: isolated any CommandContext) async throws -> CommandOutput?
}

extension ShellCommand {
    static var subcommands: [any ShellCommand.Type] { [] }
    static var gate: CommandGate? { nil }
    static var budget: RateLimitClass? { nil }
    static var interpolatesArguments: Bool { true }
    static var isMeasured: Bool { true }
    static var isPaged: Bool { true }
    static func problem(in command: Command) -> String? { nil }
    static func diagnostic(in command: Command, source: SourceFile) -> Diagnostic? {
        problem(in: command).map { Diagnostic.error($0, rule: .badArguments, at: command.range) }
    }

    /// The spec as help, completion, validation and the README see it: the configuration with
    /// the subcommands' specs, and the gate and the budget filled in (a subcommand without its own
    /// has its parent's).
    static var spec: CommandSpec {
        var spec = configuration
        spec.subcommands = subcommands.map { $0.spec }
        spec.apply(gate: gate, budget: budget)
        return spec
    }

    /// The command's name, for messages.
    static var name: String { configuration.name }
}

/// A capability gate: the feature that must be enabled on the server.
package struct CommandGate: Sendable, Hashable {
    package var feature: CapabilityFeature
    /// When only some uses are gated, which ones (`batch` for `enrich` with several ISBNs); nil: every use.
    package var scope: String?

    package init(_ feature: CapabilityFeature, scope: String? = nil) {
        self.feature = feature
        self.scope = scope
    }

    /// `similar_books`, or `batch_enrichment (batch only)`.
    package var description: String {
        scope.map { "\(feature.rawValue) (\($0) only)" } ?? feature.rawValue
    }
}

extension CommandSpec {
    /// Sets the gate and budget on this spec, and on every subcommand that has none of its own.
    mutating func apply(gate: CommandGate?, budget: RateLimitClass?) {
        self.gate = self.gate ?? gate
        self.budgetClass = self.budgetClass ?? budget
        for index in subcommands.indices {
            subcommands[index].apply(gate: self.gate, budget: self.budgetClass)
        }
    }
}

/// A command that runs only through one of its subcommands (`library`, `cache`): resolution
/// refuses it without one ("missing subcommand"), so its own `init` and `run` are never reached.
protocol CommandFamily: ShellCommand {}

extension CommandFamily {
    init(_ resolved: ResolvedCommand) throws(ShellError) {
        throw ShellError(.usage, "missing subcommand for '\(resolved.displayName)'")
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? { nil }
}
