extension ScriptBindings {
    /// Walks a script's statements once, with the loops around each as a stack of scopes.
    struct Builder {
        let vocabulary: Vocabulary
        let scriptRange: SourceRange
        var bindings: [Binding] = []
        var uses: [Use] = []
        var otherReads: [OtherRead] = []
        /// The loop variables bound around the statement walked, innermost last.
        var loops: [(name: String, binding: Int)] = []
        /// The script's variable (or variable from outside) of each name.
        var variables: [String: Int] = [:]
        /// The alias of each name the script defines (``collectAliases(_:)``).
        var aliases: [String: Int] = [:]
        /// The names the script defines as aliases (anywhere: a call above its definition is one).
        var aliasNames: Set<String> = []

        init(vocabulary: Vocabulary, scriptRange: SourceRange) {
            self.vocabulary = vocabulary
            self.scriptRange = scriptRange
        }

        /// The names `alias NAME TEXT…` defines anywhere in the script.
        mutating func collectAliases(_ commands: [Command]) {
            for command in commands {
                if let name = aliasDefined(by: command)?.name { aliasNames.insert(name) }
            }
        }

        mutating func walk(_ statements: [Statement]) {
            for statement in statements {
                switch statement {
                case .command(let command):
                    visit(command)
                case .forLoop(let loop):
                    let itemsWords: [Word]
                    let form: ItemsForm
                    switch loop.items {
                    case .words(let words): (itemsWords, form) = (words, .elements)
                    case .lines(let word): (itemsWords, form) = ([word], .lines)
                    case .split(let words): (itemsWords, form) = (words, .words)
                    }
                    for word in itemsWords { read(word) }
                    let scope = SourceRange(from: loop.range.end, to: loop.end?.offset ?? scriptRange.end)
                    let itemsRange = itemsWords.first.map { first in
                        itemsWords.dropFirst().reduce(first.range) { $0.union($1.range) }
                    }
                    let id = bindings.count
                    bindings.append(
                        Binding(
                            id: id,
                            name: loop.variable,
                            kind: .loop,
                            scope: scope,
                            definitions: [
                                Definition(
                                    range: loop.variableRange,
                                    statement: loop.range,
                                    value: .items(
                                        form,
                                        text: itemsWords.map(\.sourceForm).joined(separator: " "),
                                        range: itemsRange ?? loop.range
                                    )
                                )
                            ]
                        )
                    )
                    loops.append((loop.variable, id))
                    walk(loop.body)
                    loops.removeLast()
                case .whileLoop(let loop):
                    visit(loop.condition)
                    walk(loop.body)
                case .conditional(let conditional):
                    for branch in conditional.branches {
                        visit(branch.condition)
                        walk(branch.body)
                    }
                    walk(conditional.elseBody ?? [])
                case .loopControl:
                    continue
                }
            }
        }

        /// A command's words, its alias call, and what it defines.
        mutating func visit(_ command: Command) {
            let name = command.nameText
            let isKeyword = Parser.keywords.contains(name) || command.name.isQuoted
            if !isKeyword, aliasNames.contains(name) {
                useAlias(name, at: command.name.range)
            }
            for argument in command.arguments { read(argument.word) }
            if case .write(let word)? = command.redirection?.kind { read(word) }
            if case .append(let word)? = command.redirection?.kind { read(word) }
            if let (variable, word) = variableAssigned(by: command) {
                let id = loops.last(where: { $0.name == variable })?.binding ?? scriptVariable(variable)
                bindings[id].definitions.append(
                    Definition(range: word.range, statement: command.range, value: Self.value(of: command))
                )
            } else if let (alias, word) = aliasDefined(by: command) {
                let id = aliasBinding(alias)
                let text = command.arguments.dropFirst().map(\.word.sourceForm).joined(separator: " ")
                bindings[id].definitions.append(
                    Definition(range: word.range, statement: command.range, value: .aliasText(text))
                )
            } else if !command.name.isQuoted, [vocabulary.alias, vocabulary.unalias].contains(name) {
                // `alias NAME` shows the alias; `unalias NAME…` forgets them.
                let named = name == vocabulary.alias ? Array(command.arguments.prefix(1)) : command.arguments
                for argument in named where argument.option == nil {
                    if let text = argument.word.literalText, aliasNames.contains(text) {
                        useAlias(text, at: argument.word.range)
                    }
                }
            }
        }

        /// The variables a word reads.
        mutating func read(_ word: Word) {
            for part in word.parts {
                guard case .variable(let reference) = part else { continue }
                let name = reference.name
                let target = SourceRange(from: reference.range.offset, to: reference.nameRange.end)
                let id: Int
                if let loop = loops.last(where: { $0.name == name }) {
                    id = loop.binding
                } else {
                    guard Parser.isVariableName(name), !vocabulary.settingNames.contains(name) else {
                        otherReads.append(OtherRead(name: name, target: target))
                        continue
                    }
                    id = scriptVariable(name)
                }
                uses.append(
                    Use(
                        binding: id,
                        range: reference.nameRange,
                        target: target,
                        fallback: reference.fallback
                    )
                )
            }
        }

        mutating func scriptVariable(_ name: String) -> Int {
            if let id = variables[name] { return id }
            let id = bindings.count
            bindings.append(Binding(id: id, name: name, kind: .external, scope: scriptRange, definitions: []))
            variables[name] = id
            return id
        }

        mutating func aliasBinding(_ name: String) -> Int {
            if let id = aliases[name] { return id }
            let id = bindings.count
            bindings.append(Binding(id: id, name: name, kind: .alias, scope: scriptRange, definitions: []))
            aliases[name] = id
            return id
        }

        mutating func useAlias(_ name: String, at range: SourceRange) {
            uses.append(Use(binding: aliasBinding(name), range: range, target: range, fallback: nil))
        }

        /// The bindings, a script variable that some `set` assigns made a ``Kind/variable``.
        func finish() -> ScriptBindings {
            var bindings = self.bindings
            for index in bindings.indices where bindings[index].kind == .external {
                if !bindings[index].definitions.isEmpty { bindings[index].kind = .variable }
            }
            for index in bindings.indices {
                bindings[index].definitions.sort { $0.range.offset < $1.range.offset }
            }
            return ScriptBindings(
                bindings: bindings,
                uses: uses.sorted { $0.range.offset < $1.range.offset },
                otherReads: otherReads.sorted { $0.target.offset < $1.target.offset }
            )
        }

        /// `set NAME VALUE…` with NAME a variable's name (not a setting's): the name and its word.
        func variableAssigned(by command: Command) -> (String, Word)? {
            guard command.nameText == vocabulary.set, !command.name.isQuoted, command.arguments.count >= 2,
                let first = command.arguments.first, first.option == nil, let name = first.word.literalText,
                Parser.isVariableName(name), !vocabulary.settingNames.contains(name)
            else { return nil }
            return (name, first.word)
        }

        /// `alias NAME TEXT…`: the name and its word (`alias NAME` alone shows the alias).
        func aliasDefined(by command: Command) -> (name: String, word: Word)? {
            guard command.nameText == vocabulary.alias, !command.name.isQuoted, command.arguments.count >= 2,
                let first = command.arguments.first, first.option == nil, let name = first.word.literalText,
                !name.isEmpty
            else { return nil }
            return (name, first.word)
        }

        /// What `set NAME …` gives NAME, as written.
        static func value(of command: Command) -> Value? {
            let words = command.arguments.dropFirst().map(\.word)
            guard let first = words.first else { return nil }
            if words.count > 1 { return .arithmetic(words.map(\.sourceForm).joined(separator: " ")) }
            if let text = first.literalText { return .literal(text) }
            return .word(first.sourceForm)
        }
    }
}
