import BTSLanguage

/// The resolution of a command line against the registry's specs: binds words to the
/// subcommand, positionals and options, converts literal values to their types, checks the
/// rules and makes the diagnostics (with fix-its and typed rules) when they do not fit.
/// Pure: a value over the registry, no I/O.
package struct CommandResolver: Sendable {
    /// The commands and settings lines are resolved against.
    package let registry: CommandRegistry

    package init(registry: CommandRegistry) {
        self.registry = registry
    }

    /// Binds a parsed command to its spec: selects the subcommand, binds options and positionals,
    /// converts literal values to their types and checks the rules. Values containing `$var`
    /// stay deferred; check them with ``finish(_:interpolate:)`` once interpolated.
    package func resolve(_ command: Command) -> Result<ResolvedCommand, Diagnostics> {
        let name = command.nameText
        guard let root = registry.command(named: name) else {
            return .failure(Diagnostics([unknownCommand(name, range: command.name.range)]))
        }
        var spec = root
        var path = [root.name]
        var arguments = command.arguments[...]
        var diagnostics: [Diagnostic] = []

        // Subcommand selection: an unquoted literal first argument naming a subcommand.
        while !spec.subcommands.isEmpty {
            guard let first = arguments.first, first.kind == .positional, !first.word.isQuoted,
                let text = first.word.literalText
            else {
                if spec.positionals.isEmpty {
                    let names = spec.subcommands.map(\.name).joined(separator: ", ")
                    let at = SourceRange(offset: command.range.end, length: 0)
                    return .failure(
                        Diagnostics([
                            .error(
                                "missing subcommand for '\(path.joined(separator: " "))' (expected one of \(names))",
                                rule: .missingArgument,
                                at: at
                            )
                        ])
                    )
                }
                break
            }
            if let sub = spec.subcommand(named: text) {
                spec = sub
                path.append(sub.name)
                arguments = arguments.dropFirst()
                continue
            }
            if spec.positionals.isEmpty {
                let candidates = spec.subcommands.flatMap { [$0.name] + $0.aliases }
                var message = "unknown subcommand '\(text)' for '\(path.joined(separator: " "))'"
                var fixIt: Diagnostic.FixIt?
                if let guess = Suggest.closest(to: text, among: candidates) {
                    message += " (did you mean '\(guess)'?)"
                    fixIt = Diagnostic.FixIt(range: first.word.range, replacement: guess)
                }
                return .failure(
                    Diagnostics([.error(message, rule: .unknownSubcommand, at: first.word.range, fixIt: fixIt)])
                )
            }
            break
        }
        if !spec.takesRawArguments, let help = helpRequest(command, path: path, arguments: arguments) {
            return .success(help)
        }
        // Made only for a diagnostic (a lookup's script line paid for both at every line).
        var display: String { path.joined(separator: " ") }
        var available: [OptionSpec] { spec.takesRawArguments ? [] : spec.options + CommandRegistry.globalOptions }

        var positionalWords: [Word] = []
        positionalWords.reserveCapacity(arguments.count)
        var options: [String: BoundOption] = [:]
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard !spec.takesRawArguments else {
                positionalWords.append(argument.word)
                continue
            }
            switch argument.kind {
            case .endOfOptions:
                continue
            case .positional:
                positionalWords.append(argument.word)
            case .option(let syntax):
                guard
                    let option = CommandRegistry.option(matching: syntax, in: spec.options)
                        ?? CommandRegistry.option(matching: syntax, in: CommandRegistry.globalOptions)
                else {
                    diagnostics.append(unknownOption(syntax, command: root.name, available: available))
                    continue
                }
                if let previous = options[option.long] {
                    diagnostics.append(
                        .error(
                            "option '\(option.spelling)' given more than once",
                            rule: .duplicateOption,
                            at: syntax.nameRange,
                            notes: [Diagnostic.Note("first given here", range: previous.syntax.nameRange)]
                        )
                    )
                    continue
                }
                if option.isFlag {
                    if let value = syntax.value {
                        diagnostics.append(
                            .error(
                                "option '\(option.spelling)' does not take a value",
                                rule: .invalidValue,
                                at: value.range
                            )
                        )
                        continue
                    }
                    options[option.long] = BoundOption(spec: option, syntax: syntax, value: nil)
                    continue
                }
                var valueWord = syntax.value
                if valueWord == nil, index < arguments.endIndex, arguments[index].kind == .positional {
                    valueWord = arguments[index].word
                    index += 1
                }
                guard let word = valueWord else {
                    diagnostics.append(
                        .error(
                            "missing value for '\(syntax.spelling)' (expected \(option.valueType.expectation))",
                            rule: .missingArgument,
                            at: syntax.nameRange
                        )
                    )
                    continue
                }
                switch bind(word, type: option.valueType, label: "'\(option.spelling)'") {
                case .success(let bound):
                    options[option.long] = BoundOption(spec: option, syntax: syntax, value: bound)
                case .failure(let diagnostic):
                    diagnostics.append(diagnostic)
                }
            }
        }

        // Positionals, in order; a variadic argument takes the rest.
        var positionals: [String: [BoundValue]] = [:]
        var remaining = positionalWords[...]
        for argument in spec.positionals {
            let taken: ArraySlice<Word>
            if argument.isVariadic {
                taken = remaining
                remaining = []
            } else {
                taken = remaining.prefix(1)
                remaining = remaining.dropFirst(taken.count)
            }
            if taken.isEmpty {
                if !argument.isOptional, !isCoveredByRequirement(argument.name, spec: spec) {
                    diagnostics.append(
                        missingArgument(
                            argument.name,
                            command: display,
                            spec: spec,
                            path: path,
                            at: command.range.end
                        )
                    )
                }
                continue
            }
            var values: [BoundValue] = []
            for word in taken {
                switch bind(word, type: argument.valueType, label: argument.name) {
                case .success(let bound): values.append(bound)
                case .failure(let diagnostic): diagnostics.append(diagnostic)
                }
            }
            positionals[argument.name] = values
        }
        if let extra = remaining.first, let last = remaining.last {
            let limit = spec.positionals.count
            let expected = limit == 0 ? "takes no arguments" : "takes at most \(limit) argument\(limit == 1 ? "" : "s")"
            diagnostics.append(
                .error(
                    "too many arguments for '\(display)': unexpected '\(extra.sourceForm)' ('\(display)' \(expected))",
                    rule: .extraArgument,
                    at: extra.range.union(last.range),
                    notes: usageNotes(spec, path: path)
                )
            )
        }

        for requirement in spec.requirements {
            diagnostics += check(
                requirement,
                positionals: positionals,
                options: options,
                spec: spec,
                path: path,
                end: command.range.end
            )
        }
        diagnostics += checkNames(positionals, spec: spec)
        if !diagnostics.isEmpty { return .failure(Diagnostics(diagnostics)) }
        return .success(
            ResolvedCommand(
                command: command,
                spec: spec,
                path: path,
                positionals: positionals,
                options: options
            )
        )
    }

    /// The command that shows help on a command path: the one whose first argument is a
    /// ``ValueType/commandName`` (`help`).
    var helpCommand: CommandSpec? {
        registry.commands.first { $0.positionals.first?.valueType == .commandName }
    }

    /// `CMD [SUB] … --help` (or `-h`) anywhere before `--`: resolves as `help CMD [SUB]`, whatever
    /// else the line holds (so `similar --help` needs no ISBN).
    func helpRequest(_ command: Command, path: [String], arguments: ArraySlice<Argument>) -> ResolvedCommand? {
        for argument in arguments {
            if case .endOfOptions = argument.kind { return nil }
            guard case .option(let syntax) = argument.kind,
                CommandRegistry.option(matching: syntax, in: [CommandRegistry.helpOption]) != nil,
                let helpSpec = helpCommand, let topicArgument = helpSpec.positionals.first
            else { continue }
            let topic = path.map { BoundValue(word: command.name, type: .commandName, value: .string($0), text: $0) }
            return ResolvedCommand(
                command: command,
                spec: helpSpec,
                path: [helpSpec.name],
                positionals: [topicArgument.name: topic],
                options: [:]
            )
        }
        return nil
    }
}
