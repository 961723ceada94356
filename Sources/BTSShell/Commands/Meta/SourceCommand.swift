import BTSLanguage
import Foundation

/// `source FILE`: runs a script in this session (relative to the current script's directory).
struct SourceCommand: ShellCommand {
    static let file = ArgumentSpec("FILE", "A .bts script", type: .path(extensions: ["bts"]),
                                   completion: .filePath(extensions: ["bts"]))

    static let configuration = CommandSpec(
        "source", aliases: ["."], group: .meta,
        summary: "Run the commands of a script file",
        positionals: [file],
        examples: ["source setup.bts"])

    var file: BoundValue?

    init(_ resolved: ResolvedCommand) {
        file = resolved.values(Self.file).first
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let path = file?.text ?? ""
        try await context.source(context.resolvePath(path), shownAs: path, range: file?.word.range)
        return nil
    }
}
