import BTSLanguage

/// `exit [CODE]`: leave with CODE, or the last command's status.
struct ExitCommand: ShellCommand {
    static let result: CommandResult = .leavesResult

    static let code = ArgumentSpec("CODE", "Exit status 0–255", type: .int(0...255), optional: true)

    static let configuration = CommandSpec(
        "exit",
        aliases: ["quit"],
        group: .meta,
        summary: "Leave the shell (default status: that of the last command)",
        discussion: "'quit' does the same. At the prompt, Ctrl-D on an empty line and psql's \\q leave with status 0.",
        positionals: [code],
        examples: ["exit", "exit 3"]
    )

    var code: Int32?

    init(_ resolved: ResolvedCommand) {
        code = resolved.values(Self.code).first?.value?.intValue.map { Int32($0) }
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        context.requestExit(code ?? context.lastStatus)
        return nil
    }
}
