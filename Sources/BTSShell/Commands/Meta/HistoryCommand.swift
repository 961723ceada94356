import BTSLanguage
import BTSTerminal
import BooksTrackContract

/// `history`: the saved interactive history, numbered.
struct HistoryCommand: ShellCommand {
    static let result: CommandResult = .leavesResult

    static let configuration = CommandSpec(
        "history",
        group: .meta,
        summary: "Show the command history",
        examples: ["history"]
    )

    init(_ resolved: ResolvedCommand) {}

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let entries = context.history?.entries ?? []
        let width = String(entries.count).count
        let text = entries.enumerated().map { index, line in
            String(repeating: " ", count: width - String(index + 1).count) + "\(index + 1)  \(line)"
        }.joined(separator: "\n")
        if entries.isEmpty, context.history == nil {
            context.output.note("no history is kept outside the interactive shell")
        }
        return CommandOutput(value: .array(entries.map(JSONValue.string)), view: .text(text), setsResult: false)
    }
}
