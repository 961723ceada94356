import BTSLanguage

/// `sleep DURATION` (Ctrl-C interrupts it).
struct SleepCommand: ShellCommand {
    static let result: CommandResult = .leavesResult

    static let duration = ArgumentSpec("DURATION", "500ms, 2s, 1.5 (seconds), 3m, 1h", type: .duration)

    static let configuration = CommandSpec(
        "sleep",
        group: .meta,
        summary: "Pause for a while (interruptible)",
        positionals: [duration],
        examples: ["sleep 2s", "sleep 500ms"]
    )

    var duration: Duration?

    init(_ resolved: ResolvedCommand) {
        if case .duration(let duration)? = resolved.values(Self.duration).first?.value { self.duration = duration }
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        guard let duration else { throw ShellError(.usage, "sleep needs a duration such as 500ms, 2s or 1m") }
        try await Task.sleep(for: duration)
        return nil
    }
}
