import BTSLanguage

/// `timing [on|off]`: toggles (or sets) the per-command display and shows the last command's cost.
struct TimingCommand: ShellCommand {
    static let result: CommandResult = .leavesResult

    static let state = ArgumentSpec("STATE", "on or off", type: .enumeration(["on", "off"]), optional: true)

    static let configuration = CommandSpec(
        "timing",
        group: .meta,
        summary: "Turn the per-command timing display on or off (toggles without argument)",
        positionals: [state],
        examples: ["timing", "timing on"]
    )

    /// `timing` shows the previous command's cost, so it does not count as a command itself.
    static let isMeasured = false

    var state: String?

    init(_ resolved: ResolvedCommand) {
        state = resolved.string(Self.state)
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        if let state {
            context.settings.timing = state == "on"
        } else {
            context.settings.timing.toggle()
        }
        context.output.note(
            "timing is \(context.settings.timing ? "on" : "off"); last command: \(context.lastMetrics.summary)"
        )
        return CommandOutput(value: context.lastMetrics.json, view: .none, setsResult: false)
    }
}
