import BTSLanguage

/// `echo WORD…`: the words, interpolated, on stdout.
struct EchoCommand: ShellCommand {
    static let words = ArgumentSpec("WORD", "Text to print", optional: true, variadic: true, completion: .variable)

    static let configuration = CommandSpec(
        "echo", group: .meta,
        summary: "Print the words, with variables interpolated",
        positionals: [words],
        examples: ["echo found ${_.totalCount} books", "echo $?"],
        takesRawArguments: true)

    var words: [String]

    init(_ resolved: ResolvedCommand) {
        words = resolved.strings(Self.words)
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        context.output.out(words.joined(separator: " ") + "\n")
        return nil
    }
}
