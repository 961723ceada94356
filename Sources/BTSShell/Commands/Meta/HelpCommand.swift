import BTSLanguage
import BooksTrackClient
import BooksTrackContract

/// `help [CMD [SUB]]`: from the command types; gated commands whose feature is known to be off are
/// marked unavailable (help never opens a backend just to find out).
struct HelpCommand: ShellCommand {
    static let result: CommandResult = .leavesResult

    static let topic = ArgumentSpec(
        "COMMAND",
        "A command, optionally with its subcommand",
        type: .commandName,
        optional: true,
        variadic: true,
        completion: .command
    )

    static let configuration = CommandSpec(
        "help",
        aliases: ["?"],
        group: .meta,
        summary: "Show the commands, or details of one command",
        discussion: """
            The help is text on a terminal; into a pipe or a file it is a JSON string, as every result there \
            is JSON ('help search | jq -r .'). 'help --output table' writes the text anywhere, as 'bts help \
            COMMAND' on the command line does.
            """,
        positionals: [topic],
        examples: ["help", "help search", "help search title"]
    )

    var path: [String]

    init(_ resolved: ResolvedCommand) {
        path = resolved.strings(Self.topic)
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let capabilities = await context.connection?.api.capabilities
        let renderer = HelpRenderer(registry: .standard) { feature in
            capabilities?.isEnabled(CapabilityFeature(rawValue: feature)) ?? true
        }
        let text: String
        if path.isEmpty {
            text = renderer.overview()
        } else if let help = renderer.help(for: path) {
            text = help
        } else {
            throw ShellError(.usage, "no help for '\(path.joined(separator: " "))'")
        }
        return CommandOutput(value: .string(text), view: .text(text), setsResult: false)
    }
}
