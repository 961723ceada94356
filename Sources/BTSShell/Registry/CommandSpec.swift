import BTSLanguage
import BooksTrackClient

/// Which part of `help` a command is listed in.
package enum CommandGroup: String, Sendable, Hashable, CaseIterable {
    /// Commands that talk to the BooksTrack API (search, enrich, import, …).
    case mission
    /// Commands about the user's own library (offline).
    case library
    /// Commands about the shell itself (help, set, jobs, …).
    case meta
}

/// What TAB offers for an argument or option value.
package enum CompletionKind: Sendable, Hashable {
    case none
    case command
    case subcommand
    case option
    case optionValue([String])
    case filePath(extensions: [String])
    case jobID
    case isbn
    case title
    /// Author names (`search author`): from the catalog.
    case author
    /// Shelf names of the user's library (the standard ones and those in use).
    case shelf
    /// Tag names of the user's library.
    case tag
    case variable
    case profile
    case setting
    /// The values of the setting the positional before names (`set output <TAB>`).
    case settingValue
    case provider
    case outputFormat
    /// A table's column names (`--columns`), also after a comma (``ColumnSelection``).
    case columnNames([String])
}

/// A cross-argument rule checked after binding.
package enum ArgumentRequirement: Sendable, Hashable {
    /// At least one of the named positionals (`QUERY`) or options (`--title`) must be given.
    case anyOf([String])
    /// At most one of the named positionals or options may be given.
    case exclusive([String])
}

/// A positional argument of a command.
package struct ArgumentSpec: Sendable, Hashable {
    /// Upper-case display name, also the key in ``ResolvedCommand/positionals``: `ISBN`, `QUERY`.
    package var name: String
    package var help: String
    package var valueType: ValueType
    package var isOptional: Bool
    /// Takes all remaining words (`QUERY...`).
    package var isVariadic: Bool
    package var completion: CompletionKind
    /// Shown in `help`'s overview line (false for a rarely used tail: `set`'s `OP B`).
    package var inOverview: Bool

    package init(
        _ name: String,
        _ help: String,
        type: ValueType = .string,
        optional: Bool = false,
        variadic: Bool = false,
        completion: CompletionKind = .none,
        inOverview: Bool = true
    ) {
        self.name = name
        self.help = help
        self.valueType = type
        self.isOptional = optional
        self.isVariadic = variadic
        self.completion = completion
        self.inOverview = inOverview
    }

    /// `ISBN`, `[JOB]`, `QUERY...`, `[ARG...]`.
    package var synopsis: String {
        let base = isVariadic ? "\(name)..." : name
        return isOptional ? "[\(base)]" : base
    }
}

/// An option of a command: `--limit N`, `-n N`, `--watch`.
package struct OptionSpec: Sendable, Hashable {
    /// The long name without dashes: `limit`.
    package var long: String
    /// The short name without the dash: `n`.
    package var short: Character?
    package var valueType: ValueType
    /// The value used when the option is absent.
    package var defaultValue: ArgumentValue?
    package var help: String
    /// The placeholder in usage lines: `N`, `FILE`, `P`.
    package var valueName: String
    package var completion: CompletionKind
    /// The value must never be echoed, traced or saved in history.
    package var isSensitive: Bool

    package init(
        _ long: String,
        short: Character? = nil,
        type: ValueType,
        default defaultValue: ArgumentValue? = nil,
        valueName: String? = nil,
        help: String,
        completion: CompletionKind? = nil,
        sensitive: Bool = false
    ) {
        self.long = long
        self.short = short
        self.valueType = type
        self.defaultValue = defaultValue
        self.help = help
        self.valueName = valueName ?? type.defaultPlaceholder
        self.completion = completion ?? type.defaultCompletion
        self.isSensitive = sensitive
    }

    /// `--limit`.
    package var spelling: String { "--\(long)" }

    /// Whether the option takes no value.
    package var isFlag: Bool { valueType == .flag }

    /// `--limit N` or `--watch`.
    package var synopsis: String { isFlag ? spelling : "\(spelling) \(valueName)" }
}

/// A setting changed with `set NAME VALUE`.
package struct SettingSpec: Sendable, Hashable {
    package var name: String
    package var valueType: ValueType
    package var help: String
    /// The default, as shown in help.
    package var defaultDescription: String

    package init(_ name: String, type: ValueType, help: String, default defaultDescription: String) {
        self.name = name
        self.valueType = type
        self.help = help
        self.defaultDescription = defaultDescription
    }

    /// `output (table|json|ndjson|csv)`: the name and its values, as `help set` lists them.
    package var synopsis: String {
        switch valueType {
        case .enumeration(let values): return "\(name) (\(values.joined(separator: "|")))"
        case .int(let range?): return "\(name) (\(range.lowerBound)–\(range.upperBound))"
        default: return name
        }
    }
}

/// The declarative description of one command: the single source for validation, help,
/// completion and the README's command reference.
package struct CommandSpec: Sendable, Hashable {
    /// What help and the reference say of a sensitive command (``isSensitive``).
    static let sensitiveFact =
        "A line whose URL carries credentials (user:password@, ?token=) is never saved in history."

    package var name: String
    package var aliases: [String]
    package var group: CommandGroup
    /// One line, no final period.
    package var summary: String
    /// Longer text for `help CMD`.
    package var discussion: String
    /// Explicit usage lines; when empty they are generated from the arguments and options.
    package var usage: [String]
    package var subcommands: [CommandSpec]
    package var positionals: [ArgumentSpec]
    package var options: [OptionSpec]
    /// Capability feature that must be enabled for the command to run (set from the command type).
    package var gate: CommandGate?
    /// Rate-limit class the command spends (search, semantic, similar, enrich, batch, import, jobs).
    package var budgetClass: RateLimitClass?
    package var examples: [String]
    /// Its arguments may carry a secret (`connect` with a URL's credentials): a line that runs it
    /// is kept out of history unless every argument is a plain word without one (a profile name,
    /// a URL without credentials).
    package var isSensitive: Bool
    /// Every argument is positional, even words that look like options (`echo`, `expect`).
    package var takesRawArguments: Bool
    /// `bts NAME ARG…` runs it once, as `bts -c 'NAME ARG…'` would, its words quoted as given
    /// (`bts api /v1/search/title -f q=dune`, as `gh api`), unless a script of that name is here.
    package var runsFromCommandLine: Bool
    package var requirements: [ArgumentRequirement]

    package init(
        _ name: String,
        aliases: [String] = [],
        group: CommandGroup,
        summary: String,
        discussion: String = "",
        usage: [String] = [],
        subcommands: [CommandSpec] = [],
        positionals: [ArgumentSpec] = [],
        options: [OptionSpec] = [],
        gate: CommandGate? = nil,
        budgetClass: RateLimitClass? = nil,
        examples: [String] = [],
        isSensitive: Bool = false,
        takesRawArguments: Bool = false,
        runsFromCommandLine: Bool = false,
        requirements: [ArgumentRequirement] = []
    ) {
        self.name = name
        self.aliases = aliases
        self.group = group
        self.summary = summary
        self.discussion = discussion
        self.usage = usage
        self.subcommands = subcommands
        self.positionals = positionals
        self.options = options
        self.gate = gate
        self.budgetClass = budgetClass
        self.examples = examples
        self.isSensitive = isSensitive
        self.takesRawArguments = takesRawArguments
        self.runsFromCommandLine = runsFromCommandLine
        self.requirements = requirements
    }

    /// The subcommand called `name` (or one of its aliases).
    package func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name || $0.aliases.contains(name) }
    }

    /// The option with long name `long`.
    package func option(long: String) -> OptionSpec? {
        options.first { $0.long == long }
    }

    /// The positional argument called `name`.
    package func positional(named name: String) -> ArgumentSpec? {
        positionals.first { $0.name == name }
    }

    /// Usage lines (without the leading command path of parents).
    package func usageLines(prefix: String = "") -> [String] {
        if !usage.isEmpty { return usage }
        let path = prefix.isEmpty ? name : "\(prefix) \(name)"
        var parts = [path]
        parts += positionals.map(\.synopsis)
        parts += options.map { "[\($0.synopsis)]" }
        var lines = [parts.joined(separator: " ")]
        if positionals.isEmpty, !subcommands.isEmpty {
            lines = []
        }
        for sub in subcommands {
            lines += sub.usageLines(prefix: path)
        }
        return lines
    }
}
