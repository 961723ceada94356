import BTSLanguage

/// What each command of the registry leaves in `$_`, by command path (`search`, `library list`),
/// read from the command types of ``CommandTable`` (each declares its ``ShellCommand/result``):
/// a ``ResultShape``, nothing (the command leaves `$_` as it was), or the server's answer itself
/// (`api`). A test runs every command and holds each value to its shape.
package enum CommandResults {
    /// The declared result of the command at `path` (`["library", "list"]`, `["search", "title"]`):
    /// the subcommand's when a step names one, else the command's; nil for a name no command has.
    package static func result(for path: [String]) -> CommandResult? {
        guard let first = path.first, var type = CommandTable.byName[first] else { return nil }
        for step in path.dropFirst() {
            guard let sub = type.subcommands.first(where: { $0.name == step }) else { break }
            type = sub
        }
        return type.result
    }

    /// The declared shape of the command at `path`; nil when it declares none.
    package static func shape(for path: [String]) -> ResultShape? {
        result(for: path)?.shape
    }

    /// Whether the command at `path` leaves `$_` as it was.
    package static func leavesResult(_ path: [String]) -> Bool {
        if case .leavesResult? = result(for: path) { return true }
        return false
    }

    /// Every command path with its declared result, each subcommand after its command, in table order.
    package static var declared: [(path: [String], result: CommandResult)] {
        func walk(_ type: any ShellCommand.Type, _ parent: [String]) -> [(path: [String], result: CommandResult)] {
            let path = parent + [type.name]
            return [(path, type.result)] + type.subcommands.flatMap { walk($0, path) }
        }
        return CommandTable.all.flatMap { walk($0, []) }
    }

    /// Every shape a command declares, merged: what `$_` may hold when the command is not known.
    package static let anyResult: ResultShape = declared.sorted { $0.path.lexicographicallyPrecedes($1.path) }
        .reduce(ResultShape([])) { merged, entry in entry.result.shape.map { merged.union($0) } ?? merged }
}
