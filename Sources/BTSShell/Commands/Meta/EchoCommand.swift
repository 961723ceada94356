import BTSLanguage
import BooksTrackContract

/// `echo WORD…`: the words, interpolated, on stdout: as they are into a pipe or a file, neutralised
/// on a terminal (``ShellOutput/words(_:)``).
struct EchoCommand: ShellCommand {
    static let result: CommandResult = .leavesResult

    static let words = ArgumentSpec("WORD", "Text to print", optional: true, variadic: true, completion: .variable)

    static let configuration = CommandSpec(
        "echo",
        group: .meta,
        summary: "Print the words, with variables interpolated",
        discussion: """
            The words are echo's own output, not a result: they are written as they are into a pipe or a \
            file (no JSON around them). On a terminal, control characters in them (escape sequences, C1 \
            controls, bidirectional overrides, from a variable, ${env.NAME} or a file) are shown as \
            visible, inert symbols (␛, �) instead of driving the terminal; line breaks stay.
            """,
        positionals: [words],
        examples: ["echo found ${_.totalCount} books", "echo $?"],
        takesRawArguments: true
    )

    var words: [BoundValue]

    init(_ resolved: ResolvedCommand) {
        words = resolved.values(Self.words)
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        // A lone variable holding a list prints its items joined by spaces, as a shell prints a
        // list (`echo $isbns`), not the list's JSON; `${list}` inside other text stays JSON.
        let texts = words.compactMap { bound -> String? in
            if bound.word.parts.count == 1, case .variable = bound.word.parts[0],
                case .success(.array(let items)) = context.value(of: bound.word)
            {
                return items.map(\.interpolationText).joined(separator: " ")
            }
            return bound.text
        }
        context.output.words(texts.joined(separator: " ") + "\n")
        return nil
    }
}
