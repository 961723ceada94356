import BTSLanguage

/// The declarative list of commands and settings. ``standard`` is the one registry of bts.
package struct CommandRegistry: Sendable {
    package var commands: [CommandSpec]
    package var settings: [SettingSpec]

    package init(commands: [CommandSpec], settings: [SettingSpec] = []) {
        self.commands = commands
        self.settings = settings
    }

    /// `--output FORMAT` (`-o`): the output format of one command.
    package static let outputOption = OptionSpec(
        "output",
        short: "o",
        type: .enumeration(OutputFormat.names),
        valueName: "FORMAT",
        help: "Output format of this command: \(OutputFormat.spokenList)",
        completion: .outputFormat
    )

    /// `--help` (`-h`): show the command's help instead of running it (`search --help` is `help search`).
    package static let helpOption = OptionSpec(
        "help",
        short: "h",
        type: .flag,
        help: "Show this help instead of running the command"
    )

    /// `--no-cache`: this command asks the server (no answer from the response cache, not even
    /// offline); what it gets is still stored.
    package static let noCacheOption = OptionSpec(
        "no-cache",
        type: .flag,
        help: "Ask the server, not the response cache"
    )

    /// Options accepted by every command (except raw-argument commands such as `echo`).
    package static let globalOptions: [OptionSpec] = [outputOption, helpOption, noCacheOption]

    /// The commands that take their words as they are, without the global options (no
    /// `--output`, `--help` or `--no-cache`), by name.
    package var rawArgumentCommands: [String] { commands.filter(\.takesRawArguments).map(\.name).sorted() }

    /// The sentence help and the command reference say about the global options: which commands
    /// take them (all but ``rawArgumentCommands``) and the formats of `--output`. `code` marks up
    /// a name or option (backquotes in Markdown, nothing in the terminal).
    package func globalOptionsNote(markdown: Bool) -> String {
        let code = { (text: String) in markdown ? "`\(text)`" : text }
        let except =
            rawArgumentCommands.isEmpty ? "" : " except " + EnglishList.joined(rawArgumentCommands.map(code), "and")
        return "Every command\(except) accepts \(code("--output FORMAT")) (\(code("-o"))), one of "
            + "\(OutputFormat.spokenList), and \(code("--help"))."
    }

    /// The command called `name`, or whose alias it is.
    package func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name } ?? commands.first { $0.aliases.contains(name) }
    }

    /// The setting called `name`.
    package func setting(named name: String) -> SettingSpec? {
        settings.first { $0.name == name }
    }

    /// Every command name and alias (for completion and suggestions).
    package var allNames: [String] { commands.flatMap { [$0.name] + $0.aliases } }

    /// Commands of a group, in registry order.
    package func commands(in group: CommandGroup) -> [CommandSpec] {
        commands.filter { $0.group == group }
    }

    /// The spec for a command path such as `["search", "title"]`; nil if any step is unknown.
    package func spec(at path: [String]) -> CommandSpec? {
        guard let first = path.first, var spec = command(named: first) else { return nil }
        for step in path.dropFirst() {
            guard let sub = spec.subcommand(named: step) else { return nil }
            spec = sub
        }
        return spec
    }
}

/// The output formats of `--output` and `set output`.
package enum OutputFormat: String, Sendable, CaseIterable {
    /// `markdown`: a GitHub-flavoured pipe table (records as Field/Value tables), whole, for an
    /// issue or a note; chosen only explicitly.
    case table, json, ndjson, csv, markdown

    package static var names: [String] { allCases.map(\.rawValue) }

    /// `table, json, ndjson, csv or markdown`.
    package static var spokenList: String { EnglishList.joined(names) }
}
