import BTSLanguage
import BooksTrackContract

/// Every shell command, in the order `help` and the README list them. Adding a command is adding
/// its type here (and its file); the registry, dispatch, help, completion, gating and the README
/// reference all read this list.
enum CommandTable {
    static let all: [any ShellCommand.Type] = [
        // Mission commands
        SearchCommand.self, MoreCommand.self, SimilarCommand.self, SemanticCommand.self, EnrichCommand.self,
        ImportCommand.self,
        ScanCommand.self, WatchCommand.self, RecommendCommand.self,
        // Library commands
        LibraryCommand.self, SaveCommand.self,
        // Meta commands
        HelpCommand.self, CapsCommand.self, ApiCommand.self, LimitsCommand.self, JobsCommand.self, StatusCommand.self,
        ResultsCommand.self, CancelCommand.self, ConnectCommand.self, SetCommand.self, EchoCommand.self,
        SleepCommand.self, EveryCommand.self, SourceCommand.self, ExpectCommand.self, AliasCommand.self,
        UnaliasCommand.self,
        HistoryCommand.self, TimingCommand.self, CacheCommand.self,
        ExitCommand.self,
    ]

    /// The dispatch table: a command's name → its type.
    static let byName: [String: any ShellCommand.Type] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.configuration.name, $0) }
    )

    /// The types along a command path such as `["search", "title"]` (resolution binds aliases to
    /// the names): the command, then each subcommand; empty when a step names no type.
    static func route(path: [String]) -> [any ShellCommand.Type] {
        guard let first = path.first, var type = byName[first] else { return [] }
        var route = [type]
        for step in path.dropFirst() {
            guard let sub = type.subcommands.first(where: { $0.name == step }) else { return [] }
            type = sub
            route.append(sub)
        }
        return route
    }

    /// Every gated command with its gate, in table order.
    static var gates: [(name: String, gate: CommandGate)] {
        all.compactMap { type in type.gate.map { (type.name, $0) } }
    }

    /// Which shell commands each capability feature gates (`caps`): `enrich (batch)` for a scoped gate.
    static func gatedCommands() -> [String: [String]] {
        var map: [String: [String]] = [:]
        for (name, gate) in gates {
            map[gate.feature.rawValue, default: []].append(gate.scope.map { "\(name) (\($0))" } ?? name)
        }
        return map.mapValues { $0.sorted() }
    }
}
