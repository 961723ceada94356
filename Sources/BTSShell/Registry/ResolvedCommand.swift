import BTSLanguage

/// A value bound to a positional argument or option: typed when the word was literal,
/// deferred (``value`` is nil) when it contains `$var` and must be checked after interpolation.
public struct BoundValue: Sendable, Hashable {
    /// The word as written.
    public var word: Word
    public var type: ValueType
    /// The typed value; nil while deferred.
    public var value: ArgumentValue?
    /// The interpolated text once known (equals the literal text for literal words).
    public var text: String?

    public init(word: Word, type: ValueType, value: ArgumentValue?, text: String?) {
        self.word = word
        self.type = type
        self.value = value
        self.text = text
    }

    public var isDeferred: Bool { value == nil }
}

/// An option as bound: its spec, how it was written, and its value (nil for flags).
public struct BoundOption: Sendable, Hashable {
    public var spec: OptionSpec
    public var syntax: OptionSyntax
    public var value: BoundValue?
}

/// The command types along a command path (`search`, then its `title`), compared by identity.
struct CommandRoute: Sendable, Hashable {
    let types: [any ShellCommand.Type]

    static func == (lhs: CommandRoute, rhs: CommandRoute) -> Bool {
        lhs.types.map(ObjectIdentifier.init) == rhs.types.map(ObjectIdentifier.init)
    }

    func hash(into hasher: inout Hasher) {
        for type in types { hasher.combine(ObjectIdentifier(type)) }
    }
}

/// A command checked against the registry: the selected (sub)command spec with typed arguments.
public struct ResolvedCommand: Sendable, Hashable {
    /// The parsed command.
    public var command: Command
    /// The leaf spec (e.g. the `title` subcommand of `search`).
    public var spec: CommandSpec
    /// The command path, e.g. `["search", "title"]`.
    public var path: [String]
    /// Positional values by ``ArgumentSpec/name``, in order (several for variadic arguments).
    public var positionals: [String: [BoundValue]]
    /// Options by long name.
    public var options: [String: BoundOption]
    /// The command types along ``path``, found once when the command is resolved: the last one
    /// runs it (empty for a spec no type declares).
    var route: CommandRoute

    init(command: Command, spec: CommandSpec, path: [String], positionals: [String: [BoundValue]],
         options: [String: BoundOption]) {
        self.command = command
        self.spec = spec
        self.path = path
        self.positionals = positionals
        self.options = options
        route = CommandRoute(types: CommandTable.route(path: path))
    }

    /// The type that runs it.
    var type: (any ShellCommand.Type)? { route.types.last }

    /// `search title`: the command path as text.
    public var displayName: String { path.joined(separator: " ") }

    /// Whether some value waits for interpolation (see ``CommandRegistry/finish(_:interpolate:)``).
    public var hasDeferredValues: Bool {
        positionals.values.contains { $0.contains { $0.isDeferred } }
            || options.values.contains { $0.value?.isDeferred ?? false }
    }

    /// The values of a positional argument.
    public func values(_ positional: String) -> [BoundValue] { positionals[positional] ?? [] }

    /// The first value of a positional argument as text.
    public func string(_ positional: String) -> String? { values(positional).first?.text }

    /// All values of a (variadic) positional argument as text.
    public func strings(_ positional: String) -> [String] { values(positional).compactMap(\.text) }

    /// Whether a flag option was given.
    public func flag(_ long: String) -> Bool { options[long] != nil }

    /// The value of an option, or its default when absent. Nil while deferred.
    public func option(_ long: String) -> ArgumentValue? {
        if let bound = options[long] { return bound.value?.value ?? (bound.spec.isFlag ? .flag(true) : nil) }
        return (spec.option(long: long) ?? CommandRegistry.globalOptions.first { $0.long == long })?.defaultValue
    }

    /// The integer value of an option (or its default).
    public func int(_ long: String) -> Int? { option(long)?.intValue }

    /// The text value of an option (or its default).
    public func optionString(_ long: String) -> String? { option(long)?.stringValue }
}

/// Typed reads keyed by the spec itself (a command type's `static let`), not by a string.
extension ResolvedCommand {
    /// The values of a positional argument.
    func values(_ argument: ArgumentSpec) -> [BoundValue] { positionals[argument.name] ?? [] }

    /// The first value of a positional argument as text.
    func string(_ argument: ArgumentSpec) -> String? { values(argument).first?.text }

    /// All values of a (variadic) positional argument as text.
    func strings(_ argument: ArgumentSpec) -> [String] { values(argument).compactMap(\.text) }

    /// The option as bound, if given.
    func bound(_ option: OptionSpec) -> BoundOption? { options[option.long] }

    /// Whether a flag option was given.
    func flag(_ option: OptionSpec) -> Bool { options[option.long] != nil }

    /// The integer value of an option (or its default).
    func int(_ option: OptionSpec) -> Int? { self.option(option.long)?.intValue }

    /// The text value of an option (or its default).
    func string(_ option: OptionSpec) -> String? { self.option(option.long)?.stringValue }
}
