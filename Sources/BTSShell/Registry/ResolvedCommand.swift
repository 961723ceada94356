import BTSLanguage

/// A value bound to a positional argument or option: typed when the word was literal,
/// deferred (``value`` is nil) when it contains `$var` and must be checked after interpolation.
package struct BoundValue: Sendable, Hashable {
    /// The word as written.
    package var word: Word
    package var type: ValueType
    /// The typed value; nil while deferred.
    package var value: ArgumentValue?
    /// The interpolated text once known (equals the literal text for literal words).
    package var text: String?

    package init(word: Word, type: ValueType, value: ArgumentValue?, text: String?) {
        self.word = word
        self.type = type
        self.value = value
        self.text = text
    }

    package var isDeferred: Bool { value == nil }
}

/// An option as bound: its spec, how it was written, and its value (nil for flags).
package struct BoundOption: Sendable, Hashable {
    package var spec: OptionSpec
    package var syntax: OptionSyntax
    package var value: BoundValue?
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
package struct ResolvedCommand: Sendable, Hashable {
    /// The parsed command.
    package var command: Command
    /// The leaf spec (e.g. the `title` subcommand of `search`).
    package var spec: CommandSpec
    /// The command path, e.g. `["search", "title"]`.
    package var path: [String]
    /// Positional values by ``ArgumentSpec/name``, in order (several for variadic arguments).
    package var positionals: [String: [BoundValue]]
    /// Options by long name.
    package var options: [String: BoundOption]
    /// The command types along ``path``, found once when the command is resolved: the last one
    /// runs it (empty for a spec no type declares).
    var route: CommandRoute

    init(
        command: Command,
        spec: CommandSpec,
        path: [String],
        positionals: [String: [BoundValue]],
        options: [String: BoundOption]
    ) {
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
    package var displayName: String { path.joined(separator: " ") }

    /// Whether some value waits for interpolation (see ``CommandRegistry/finish(_:interpolate:)``).
    package var hasDeferredValues: Bool {
        positionals.values.contains { $0.contains { $0.isDeferred } }
            || options.values.contains { $0.value?.isDeferred ?? false }
    }

    /// The values of a positional argument.
    package func values(_ positional: String) -> [BoundValue] { positionals[positional] ?? [] }

    /// The first value of a positional argument as text.
    package func string(_ positional: String) -> String? { values(positional).first?.text }

    /// All values of a (variadic) positional argument as text.
    package func strings(_ positional: String) -> [String] { values(positional).compactMap(\.text) }

    /// Whether a flag option was given.
    package func flag(_ long: String) -> Bool { options[long] != nil }

    /// The value of an option, or its default when absent. Nil while deferred.
    package func option(_ long: String) -> ArgumentValue? {
        if let bound = options[long] { return bound.value?.value ?? (bound.spec.isFlag ? .flag(true) : nil) }
        return (spec.option(long: long) ?? CommandRegistry.globalOptions.first { $0.long == long })?.defaultValue
    }

    /// The integer value of an option (or its default).
    package func int(_ long: String) -> Int? { option(long)?.intValue }

    /// The text value of an option (or its default).
    package func optionString(_ long: String) -> String? { option(long)?.stringValue }
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
