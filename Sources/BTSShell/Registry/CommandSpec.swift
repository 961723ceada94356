import BTSLanguage
import BooksTrackClient

/// Which part of `help` a command is listed in.
public enum CommandGroup: String, Sendable, Hashable, CaseIterable {
    /// Commands that talk to the BooksTrack API (search, enrich, import, …).
    case mission
    /// Commands about the user's own library (offline).
    case library
    /// Commands about the shell itself (help, set, jobs, …).
    case meta
}

/// What TAB offers for an argument or option value.
public enum CompletionKind: Sendable, Hashable {
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
public enum ArgumentRequirement: Sendable, Hashable {
    /// At least one of the named positionals (`QUERY`) or options (`--title`) must be given.
    case anyOf([String])
    /// At most one of the named positionals or options may be given.
    case exclusive([String])
}

/// A positional argument of a command.
public struct ArgumentSpec: Sendable, Hashable {
    /// Upper-case display name, also the key in ``ResolvedCommand/positionals``: `ISBN`, `QUERY`.
    public var name: String
    public var help: String
    public var valueType: ValueType
    public var isOptional: Bool
    /// Takes all remaining words (`QUERY...`).
    public var isVariadic: Bool
    public var completion: CompletionKind
    /// Shown in `help`'s overview line (false for a rarely used tail: `set`'s `OP B`).
    public var inOverview: Bool

    public init(
        _ name: String, _ help: String, type: ValueType = .string, optional: Bool = false,
        variadic: Bool = false, completion: CompletionKind = .none, inOverview: Bool = true
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
    public var synopsis: String {
        let base = isVariadic ? "\(name)..." : name
        return isOptional ? "[\(base)]" : base
    }
}

/// An option of a command: `--limit N`, `-n N`, `--watch`.
public struct OptionSpec: Sendable, Hashable {
    /// The long name without dashes: `limit`.
    public var long: String
    /// The short name without the dash: `n`.
    public var short: Character?
    public var valueType: ValueType
    /// The value used when the option is absent.
    public var defaultValue: ArgumentValue?
    public var help: String
    /// The placeholder in usage lines: `N`, `FILE`, `P`.
    public var valueName: String
    public var completion: CompletionKind
    /// The value must never be echoed, traced or saved in history.
    public var isSensitive: Bool

    public init(
        _ long: String, short: Character? = nil, type: ValueType, default defaultValue: ArgumentValue? = nil,
        valueName: String? = nil, help: String, completion: CompletionKind? = nil, sensitive: Bool = false
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
    public var spelling: String { "--\(long)" }

    /// Whether the option takes no value.
    public var isFlag: Bool { valueType == .flag }

    /// `--limit N` or `--watch`.
    public var synopsis: String { isFlag ? spelling : "\(spelling) \(valueName)" }
}

/// A setting changed with `set NAME VALUE`.
public struct SettingSpec: Sendable, Hashable {
    public var name: String
    public var valueType: ValueType
    public var help: String
    /// The default, as shown in help.
    public var defaultDescription: String

    public init(_ name: String, type: ValueType, help: String, default defaultDescription: String) {
        self.name = name
        self.valueType = type
        self.help = help
        self.defaultDescription = defaultDescription
    }

    /// `output (table|json|ndjson|csv)`: the name and its values, as `help set` lists them.
    public var synopsis: String {
        switch valueType {
        case .enumeration(let values): return "\(name) (\(values.joined(separator: "|")))"
        case .int(let range?): return "\(name) (\(range.lowerBound)–\(range.upperBound))"
        default: return name
        }
    }
}

/// The declarative description of one command: the single source for validation, help,
/// completion and the README's command reference.
public struct CommandSpec: Sendable, Hashable {
    /// What help and the reference say of a sensitive command (``isSensitive``).
    static let sensitiveFact = "A line whose URL carries credentials (user:password@, ?token=) is never saved in history."

    public var name: String
    public var aliases: [String]
    public var group: CommandGroup
    /// One line, no final period.
    public var summary: String
    /// Longer text for `help CMD`.
    public var discussion: String
    /// Explicit usage lines; when empty they are generated from the arguments and options.
    public var usage: [String]
    public var subcommands: [CommandSpec]
    public var positionals: [ArgumentSpec]
    public var options: [OptionSpec]
    /// Capability feature that must be enabled for the command to run (set from the command type).
    public var gate: CommandGate?
    /// Rate-limit class the command spends (search, semantic, similar, enrich, batch, import, jobs).
    public var budgetClass: RateLimitClass?
    public var examples: [String]
    /// Its arguments may carry a secret (`connect` with a URL's credentials): a line that runs it
    /// is kept out of history unless every argument is a plain word without one (a profile name,
    /// a URL without credentials).
    public var isSensitive: Bool
    /// Every argument is positional, even words that look like options (`echo`, `expect`).
    public var takesRawArguments: Bool
    /// `bts NAME ARG…` runs it once, as `bts -c 'NAME ARG…'` would, its words quoted as given
    /// (`bts api /v1/search/title -f q=dune`, as `gh api`), unless a script of that name is here.
    public var runsFromCommandLine: Bool
    public var requirements: [ArgumentRequirement]

    public init(
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
    public func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name || $0.aliases.contains(name) }
    }

    /// The option with long name `long`.
    public func option(long: String) -> OptionSpec? {
        options.first { $0.long == long }
    }

    /// The positional argument called `name`.
    public func positional(named name: String) -> ArgumentSpec? {
        positionals.first { $0.name == name }
    }

    /// Usage lines (without the leading command path of parents).
    public func usageLines(prefix: String = "") -> [String] {
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
