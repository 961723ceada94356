import BTSLanguage

extension CommandRegistry {
    /// Binds a parsed command to its spec: selects the subcommand, binds options and positionals,
    /// converts literal values to their types and checks the rules. Values containing `$var`
    /// stay deferred; check them with ``finish(_:interpolate:)`` once interpolated.
    package func resolve(_ command: Command) -> Result<ResolvedCommand, Diagnostics> {
        let name = command.nameText
        guard let root = self.command(named: name) else {
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
        var available: [OptionSpec] { spec.takesRawArguments ? [] : spec.options + Self.globalOptions }

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
                    let option = Self.option(matching: syntax, in: spec.options)
                        ?? Self.option(matching: syntax, in: Self.globalOptions)
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
        commands.first { $0.positionals.first?.valueType == .commandName }
    }

    /// `CMD [SUB] … --help` (or `-h`) anywhere before `--`: resolves as `help CMD [SUB]`, whatever
    /// else the line holds (so `similar --help` needs no ISBN).
    func helpRequest(_ command: Command, path: [String], arguments: ArraySlice<Argument>) -> ResolvedCommand? {
        for argument in arguments {
            if case .endOfOptions = argument.kind { return nil }
            guard case .option(let syntax) = argument.kind,
                Self.option(matching: syntax, in: [Self.helpOption]) != nil,
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

    /// The second step for commands with `$var` values: `interpolate` turns each deferred word
    /// into text (or a diagnostic, e.g. for an unknown variable); the text is then checked
    /// against the argument's type. After success no value is deferred.
    package func finish(
        _ resolved: ResolvedCommand,
        interpolate: (Word) -> Result<String, Diagnostic>
    ) -> Result<ResolvedCommand, Diagnostics> {
        var result = resolved
        var diagnostics: [Diagnostic] = []
        func complete(_ bound: BoundValue, label: String) -> BoundValue? {
            guard bound.isDeferred else { return bound }
            switch interpolate(bound.word) {
            case .failure(let diagnostic):
                diagnostics.append(diagnostic)
                return nil
            case .success(let text):
                switch check(text, word: bound.word, type: bound.type, label: label) {
                case .success(let value):
                    return BoundValue(word: bound.word, type: bound.type, value: value, text: text)
                case .failure(let diagnostic):
                    diagnostics.append(diagnostic)
                    return nil
                }
            }
        }
        for (name, values) in resolved.positionals {
            result.positionals[name] = values.compactMap { complete($0, label: name) }
        }
        for (long, option) in resolved.options {
            guard let value = option.value else { continue }
            result.options[long]?.value = complete(value, label: "'\(option.spec.spelling)'")
        }
        if diagnostics.isEmpty {
            diagnostics += checkNames(result.positionals, spec: resolved.spec)
        }
        if !diagnostics.isEmpty { return .failure(Diagnostics(diagnostics)) }
        return .success(result)
    }

    // MARK: Values

    private func bind(_ word: Word, type: ValueType, label: String) -> Result<BoundValue, Diagnostic> {
        guard let text = word.literalText else {
            return .success(BoundValue(word: word, type: type, value: nil, text: nil))
        }
        return check(text, word: word, type: type, label: label).map {
            BoundValue(word: word, type: type, value: $0, text: text)
        }
    }

    /// Checks one value's text against its type; `label` is `'--limit'` or `CODE`.
    private func check(_ text: String, word: Word, type: ValueType, label: String) -> Result<ArgumentValue, Diagnostic>
    {
        let origin = word.hasInterpolation ? " (from '\(word.sourceForm)')" : ""
        switch type.parse(text) {
        case .success(let value):
            return .success(value)
        case .failure(.outOfRange):
            return .failure(
                .error(
                    "value \(text) for \(label)\(origin) is out of range: expected \(type.expectation)",
                    rule: .invalidValue,
                    at: word.range
                )
            )
        case .failure(.invalid):
            return .failure(
                .error(
                    "invalid value '\(text)' for \(label)\(origin): expected \(type.expectation)",
                    rule: .invalidValue,
                    at: word.range
                )
            )
        case .failure(.unknownWord(let suggestion)):
            var message = "invalid value '\(text)' for \(label)\(origin): expected \(type.expectation)"
            var fixIt: Diagnostic.FixIt?
            var closest = suggestion
            if closest == nil, case .enumeration(let values) = type {
                closest = Suggest.closest(to: text, among: values)
            }
            if let guess = closest {
                message += " (did you mean '\(guess)'?)"
                if !word.hasInterpolation { fixIt = Diagnostic.FixIt(range: word.range, replacement: guess) }
            }
            return .failure(.error(message, rule: .invalidValue, at: word.range, fixIt: fixIt))
        }
    }

    // MARK: Diagnostics

    func unknownCommand(_ name: String, range: SourceRange) -> Diagnostic {
        if Parser.keywords.contains(name) {
            // `help while`: a keyword named where a command goes.
            return .error(
                "'\(name)' is a keyword of the language, not a command",
                rule: .unknownCommand,
                at: range,
                notes: [
                    Diagnostic.Note(
                        "blocks: for NAME in WORD… … end, while COND … end, if COND … elif COND … else … end; break and "
                            + "continue inside a loop (docs/language.md, Blocks)"
                    )
                ]
            )
        }
        var message = "unknown command '\(name)'"
        var fixIt: Diagnostic.FixIt?
        if let guess = Suggest.closest(to: name, among: allNames + Parser.keywords) {
            message += " (did you mean '\(guess)'?)"
            fixIt = Diagnostic.FixIt(range: range, replacement: guess)
        }
        return .error(
            message,
            rule: .unknownCommand,
            at: range,
            notes: [Diagnostic.Note("type 'help' to list the commands")],
            fixIt: fixIt
        )
    }

    private func unknownOption(_ syntax: OptionSyntax, command: String, available: [OptionSpec]) -> Diagnostic {
        var message = "unknown option '\(syntax.spelling)' for '\(command)'"
        var fixIt: Diagnostic.FixIt?
        let guess: String?
        if syntax.isLong {
            guess = Suggest.closest(to: syntax.name, among: available.map(\.long)).map { "--\($0)" }
        } else {
            let long = available.first { $0.long == syntax.name }
            guess = long.map(\.spelling)
        }
        if let guess {
            message += " (did you mean '\(guess)'?)"
            fixIt = Diagnostic.FixIt(range: syntax.nameRange, replacement: guess)
        }
        return .error(message, rule: .unknownOption, at: syntax.nameRange, fixIt: fixIt)
    }

    private func usageNotes(_ spec: CommandSpec, path: [String]) -> [Diagnostic.Note] {
        let prefix = path.dropLast().joined(separator: " ")
        return spec.usageLines(prefix: prefix).map { Diagnostic.Note("usage: \($0)") }
    }

    private func missingArgument(
        _ name: String,
        command: String,
        spec: CommandSpec,
        path: [String],
        at end: Int
    ) -> Diagnostic {
        .error(
            "missing argument \(name) for '\(command)'",
            rule: .missingArgument,
            at: SourceRange(offset: end, length: 0),
            notes: usageNotes(spec, path: path)
        )
    }

    private func isCoveredByRequirement(_ name: String, spec: CommandSpec) -> Bool {
        spec.requirements.contains { requirement in
            if case .anyOf(let names) = requirement { return names.contains(name) }
            return false
        }
    }

    private func check(
        _ requirement: ArgumentRequirement,
        positionals: [String: [BoundValue]],
        options: [String: BoundOption],
        spec: CommandSpec,
        path: [String],
        end: Int
    ) -> [Diagnostic] {
        func present(_ name: String) -> SourceRange? {
            if name.hasPrefix("--") { return options[String(name.dropFirst(2))]?.syntax.nameRange }
            guard let values = positionals[name], let first = values.first, let last = values.last else { return nil }
            return first.word.range.union(last.word.range)
        }
        let display = path.joined(separator: " ")
        switch requirement {
        case .anyOf(let names):
            guard !names.contains(where: { present($0) != nil }) else { return [] }
            let list = EnglishList.joined(names)
            return [
                .error(
                    "missing argument for '\(display)': give \(list)",
                    rule: .missingArgument,
                    at: SourceRange(offset: end, length: 0),
                    notes: usageNotes(spec, path: path)
                )
            ]
        case .exclusive(let names):
            let given = names.compactMap { name in present(name).map { (name, $0) } }
            guard given.count > 1 else { return [] }
            let (firstName, firstRange) = given[0]
            return given.dropFirst().map { name, range in
                .error(
                    "\(name) cannot be combined with \(firstName) in '\(display)'",
                    rule: .conflictingArguments,
                    at: range,
                    notes: [Diagnostic.Note("\(firstName) given here", range: firstRange)]
                )
            }
        }
    }

    /// The rules of the name-typed arguments, whichever command declares them: a
    /// ``ValueType/commandName`` names a command path (`help`), a ``ValueType/settingName`` a
    /// setting or a variable, with the next argument the setting's value (`set`).
    private func checkNames(_ positionals: [String: [BoundValue]], spec: CommandSpec) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (index, argument) in spec.positionals.enumerated() {
            switch argument.valueType {
            case .commandName:
                diagnostics += checkCommandPath(positionals[argument.name] ?? [])
            case .settingName:
                let value = spec.positionals.indices.contains(index + 1) ? spec.positionals[index + 1] : nil
                diagnostics += checkSet(
                    positionals[argument.name]?.first,
                    value: value.flatMap { positionals[$0.name]?.first },
                    usage: "\(spec.name) \(argument.name) \(value?.name ?? "VALUE")"
                )
            default:
                continue
            }
        }
        return diagnostics
    }

    /// `help CMD [SUB]`: the words must name a command and then its subcommands.
    private func checkCommandPath(_ words: [BoundValue]) -> [Diagnostic] {
        guard let first = words.first, let name = first.text else { return [] }
        guard var spec = command(named: name) else { return [unknownCommand(name, range: first.word.range)] }
        var path = [spec.name]
        for bound in words.dropFirst() {
            guard let text = bound.text else { return [] }
            guard let sub = spec.subcommand(named: text) else {
                var message = "unknown subcommand '\(text)' for '\(path.joined(separator: " "))'"
                var fixIt: Diagnostic.FixIt?
                if spec.subcommands.isEmpty {
                    message += " ('\(path.joined(separator: " "))' has no subcommands)"
                } else if let guess = Suggest.closest(to: text, among: spec.subcommands.map(\.name)) {
                    message += " (did you mean '\(guess)'?)"
                    fixIt = Diagnostic.FixIt(range: bound.word.range, replacement: guess)
                }
                return [.error(message, rule: .unknownSubcommand, at: bound.word.range, fixIt: fixIt)]
            }
            spec = sub
            path.append(sub.name)
        }
        return []
    }

    /// `set NAME VALUE`: NAME is a setting (VALUE checked against it) or a variable name.
    private func checkSet(_ name: BoundValue?, value: BoundValue?, usage: String) -> [Diagnostic] {
        let command = usage.prefix { $0 != " " }
        let valueName = usage.split(separator: " ").last ?? "VALUE"
        guard let name else { return [] }
        guard let text = name.word.literalText else {
            return [
                .error(
                    "the name in '\(command)' must be written literally, not with '$'",
                    rule: .badVariableName,
                    at: name.word.range
                )
            ]
        }
        guard let value else {
            if setting(named: text) == nil, !Self.isVariableName(text) { return [invalidVariable(text, name.word)] }
            return [
                .error(
                    "missing argument \(valueName) for '\(command)'",
                    rule: .missingArgument,
                    at: SourceRange(offset: name.word.range.end, length: 0),
                    notes: [Diagnostic.Note("usage: \(usage)")]
                )
            ]
        }
        if let setting = setting(named: text) {
            guard let valueText = value.text else { return [] }
            if case .failure(let diagnostic) = check(
                valueText,
                word: value.word,
                type: setting.valueType,
                label: "setting '\(setting.name)'"
            ) {
                return [diagnostic]
            }
            return []
        }
        return Self.isVariableName(text) ? [] : [invalidVariable(text, name.word)]
    }

    private func invalidVariable(_ text: String, _ word: Word) -> Diagnostic {
        var message = "'\(text)' is neither a setting nor a valid variable name"
        var fixIt: Diagnostic.FixIt?
        if let guess = Suggest.closest(to: text, among: settings.map(\.name)) {
            message += " (did you mean the setting '\(guess)'?)"
            fixIt = Diagnostic.FixIt(range: word.range, replacement: guess)
        }
        return .error(
            message,
            rule: .badVariableName,
            at: word.range,
            notes: [
                Diagnostic.Note(
                    "variable names start with a letter or '_' followed by letters, digits or '_'; '_' (the last result), '\(Parser.exchangeName)' (the last HTTP exchange) and '\(Parser.environmentName)' (the environment: ${env.NAME}) are reserved"
                )
            ],
            fixIt: fixIt
        )
    }

    /// Whether `name` can be assigned with `set` (``Parser/isVariableName(_:)``).
    package static func isVariableName(_ name: String) -> Bool { Parser.isVariableName(name) }
}
