import BTSLanguage

extension CommandResolver {
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
        if let guess = Suggest.closest(to: name, among: registry.allNames + Parser.keywords) {
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

    func unknownOption(_ syntax: OptionSyntax, command: String, available: [OptionSpec]) -> Diagnostic {
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

    func usageNotes(_ spec: CommandSpec, path: [String]) -> [Diagnostic.Note] {
        let prefix = path.dropLast().joined(separator: " ")
        return spec.usageLines(prefix: prefix).map { Diagnostic.Note("usage: \($0)") }
    }

    func missingArgument(
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

    func isCoveredByRequirement(_ name: String, spec: CommandSpec) -> Bool {
        spec.requirements.contains { requirement in
            if case .anyOf(let names) = requirement { return names.contains(name) }
            return false
        }
    }

    func check(
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
}
