import BTSLanguage

extension CommandResolver {
    /// The rules of the name-typed arguments, whichever command declares them: a
    /// ``ValueType/commandName`` names a command path (`help`), a ``ValueType/settingName`` a
    /// setting or a variable, with the next argument the setting's value (`set`).
    func checkNames(_ positionals: [String: [BoundValue]], spec: CommandSpec) -> [Diagnostic] {
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
    func checkCommandPath(_ words: [BoundValue]) -> [Diagnostic] {
        guard let first = words.first, let name = first.text else { return [] }
        guard var spec = registry.command(named: name) else { return [unknownCommand(name, range: first.word.range)] }
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
    func checkSet(_ name: BoundValue?, value: BoundValue?, usage: String) -> [Diagnostic] {
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
            if registry.setting(named: text) == nil, !Parser.isVariableName(text) {
                return [invalidVariable(text, name.word)]
            }
            return [
                .error(
                    "missing argument \(valueName) for '\(command)'",
                    rule: .missingArgument,
                    at: SourceRange(offset: name.word.range.end, length: 0),
                    notes: [Diagnostic.Note("usage: \(usage)")]
                )
            ]
        }
        if let setting = registry.setting(named: text) {
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
        return Parser.isVariableName(text) ? [] : [invalidVariable(text, name.word)]
    }

    func invalidVariable(_ text: String, _ word: Word) -> Diagnostic {
        var message = "'\(text)' is neither a setting nor a valid variable name"
        var fixIt: Diagnostic.FixIt?
        if let guess = Suggest.closest(to: text, among: registry.settings.map(\.name)) {
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
}
