import BTSLanguage
import Foundation

/// `source FILE [ARG…]`: runs a script in this session (relative to the current script's directory);
/// the ARGs are its `$1..$n` (without any, it sees the caller's).
struct SourceCommand: ShellCommand {
    static let result: CommandResult = .leavesResult

    static let file = ArgumentSpec(
        "FILE",
        "A .bts script",
        type: .path(extensions: ["bts"]),
        completion: .filePath(extensions: ["bts"])
    )

    static let arguments = ArgumentSpec("ARG", "Arguments for the script ($1..$n)", optional: true, variadic: true)

    static let configuration = CommandSpec(
        "source",
        aliases: ["."],
        group: .meta,
        summary: "Run the commands of a script file, with arguments",
        discussion: "The ARGs are the script's $1..$n, $# and $@ while it runs; without any it sees the caller's.",
        positionals: [file, arguments],
        examples: ["source setup.bts", "source lib/show.bts 9780439023481"]
    )

    var file: BoundValue?
    var arguments: [String]

    init(_ resolved: ResolvedCommand) {
        file = resolved.values(Self.file).first
        arguments = resolved.strings(Self.arguments)
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let path = file?.text ?? ""
        try await context.source(
            context.resolvePath(path),
            shownAs: path,
            range: file?.word.range,
            arguments: arguments.isEmpty ? nil : arguments
        )
        return nil
    }
}
