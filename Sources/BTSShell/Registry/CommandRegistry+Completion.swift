import BTSLanguage

/// What TAB should complete at the cursor, worked out from the registry alone (no I/O).
/// A completion provider turns ``kind`` into candidates that need session data (job ids,
/// ISBNs, titles, variables, files) and can use ``candidates`` as they are for registry words.
package struct CompletionSlot: Sendable, Hashable {
    /// What belongs in this position.
    package var kind: CompletionKind
    /// The part of the word already typed (quotes and escapes removed).
    package var partial: String
    /// The UTF-8 byte range of the typed word in the line (empty at the cursor when none).
    package var range: SourceRange
    /// Registry words that fit (command names, subcommands, options, enumeration values,
    /// settings), already filtered by ``partial``. Option values given as `--name=` keep that prefix.
    package var candidates: [String]
    /// The command (or subcommand) being typed, if known.
    package var command: CommandSpec?

    package init(
        kind: CompletionKind,
        partial: String,
        range: SourceRange,
        candidates: [String] = [],
        command: CommandSpec? = nil
    ) {
        self.kind = kind
        self.partial = partial
        self.range = range
        self.candidates = candidates
        self.command = command
    }
}

extension CommandRegistry {
    /// Analyses `line` up to `cursorOffset` (a UTF-8 offset; the end when nil).
    /// After a block keyword: `for NAME in` offers `in`, then `lines`/`words`; `if`/`elif`/`while`
    /// offer the words of a condition that may come next (``Condition/nextWords(after:)``).
    private func keywordSlot(
        _ keyword: String,
        words: [Word],
        _ slot: (CompletionKind, [String], CommandSpec?) -> CompletionSlot
    ) -> CompletionSlot {
        switch (keyword, words.count) {
        case ("for", 1): return slot(.subcommand, ["in"], nil)
        case ("for", 2) where words[1].literalText == "in": return slot(.subcommand, ["lines", "words"], nil)
        case ("for", 3) where words[2].literalText == "lines":
            return slot(.filePath(extensions: ["txt", "csv"]), [], nil)
        case ("if", _), ("elif", _), ("while", _):
            let next = Condition.nextWords(after: words)
            return slot(next.isEmpty ? .none : .subcommand, next, nil)
        default: return slot(.none, [], nil)
        }
    }

    package func completionSlot(forLine line: String, cursorOffset: Int? = nil) -> CompletionSlot {
        let bytes = Array(line.utf8)
        let cursor = min(max(0, cursorOffset ?? bytes.count), bytes.count)
        let text = String(decoding: bytes[..<cursor], as: UTF8.self)
        let cursorEnd = text.utf8.count
        let (tokens, _) = Lexer.tokenize(SourceFile(name: "<completion>", text: text))
        var words: [Word] = []
        for token in tokens {
            if let word = token.word {
                words.append(word)
            } else if token.kind != .end {
                words.removeAll()
            }
        }
        var partialWord: Word?
        if let last = words.last, last.range.end == cursorEnd {
            partialWord = last
            words.removeLast()
        }
        let partial = partialWord.map { $0.literalText ?? $0.sourceForm } ?? ""
        let range = partialWord?.range ?? SourceRange(offset: cursorEnd, length: 0)
        func slot(_ kind: CompletionKind, _ candidates: [String] = [], _ spec: CommandSpec? = nil) -> CompletionSlot {
            CompletionSlot(
                kind: kind,
                partial: partial,
                range: range,
                candidates: candidates.filter { $0.hasPrefix(partial) },
                command: spec
            )
        }
        if partial.hasPrefix("$") { return slot(.variable) }
        guard let first = words.first else {
            return slot(.command, commands.map(\.name) + Parser.keywords)
        }
        if let keyword = first.literalText, !first.isQuoted, Parser.keywords.contains(keyword) {
            return keywordSlot(keyword, words: Array(words.dropFirst()), slot)
        }
        guard let name = first.literalText, let root = command(named: name) else { return slot(.none) }

        var spec = root
        var arguments = words.dropFirst().map { word -> Argument in
            let kind: Argument.Kind = (try? Parser.classify(word).get()) ?? Argument.Kind.positional
            return Argument(word: word, kind: kind)
        }[...]
        while !spec.subcommands.isEmpty, let next = arguments.first, next.kind == .positional, !next.word.isQuoted,
            let text = next.word.literalText, let sub = spec.subcommand(named: text)
        {
            spec = sub
            arguments = arguments.dropFirst()
        }
        if arguments.isEmpty, !spec.subcommands.isEmpty, !partial.hasPrefix("-") {
            return slot(.subcommand, spec.subcommands.map(\.name), spec)
        }
        let options = spec.takesRawArguments ? [] : spec.options + Self.globalOptions
        var pending: OptionSpec?
        var positionals: [Word] = []
        var given: Set<String> = []
        var optionsEnded = spec.takesRawArguments
        for argument in arguments {
            if pending != nil {
                pending = nil
                if argument.kind == Argument.Kind.positional { continue }
            }
            switch argument.kind {
            case .positional:
                positionals.append(argument.word)
            case .endOfOptions:
                if optionsEnded { positionals.append(argument.word) }
                optionsEnded = true
            case .option(let syntax):
                if optionsEnded {
                    positionals.append(argument.word)
                    continue
                }
                guard let found = Self.option(matching: syntax, in: options) else { continue }
                given.insert(found.long)
                if !found.isFlag, syntax.value == nil { pending = found }
            }
        }
        if let option = pending {
            return slot(option.completion, values(of: option.valueType), spec)
        }
        if !optionsEnded, partial.hasPrefix("-") {
            if let equals = partial.firstIndex(of: "="), partial.hasPrefix("--") {
                let long = String(partial[partial.index(partial.startIndex, offsetBy: 2)..<equals])
                guard let option = options.first(where: { $0.long == long }) else { return slot(.none, [], spec) }
                let prefix = "--\(long)="
                return slot(option.completion, values(of: option.valueType).map { prefix + $0 }, spec)
            }
            return slot(.option, options.filter { !given.contains($0.long) }.map(\.spelling), spec)
        }
        var index = 0
        var argumentSpec: ArgumentSpec?
        for candidate in spec.positionals {
            if candidate.isVariadic || index == positionals.count {
                argumentSpec = candidate
                break
            }
            index += 1
        }
        guard let argumentSpec else { return slot(.none, [], spec) }
        switch (argumentSpec.valueType, argumentSpec.completion) {
        case (.commandName, _):
            // A command path (`help search title`): a command, then its subcommands.
            let topic = positionals[index...].compactMap(\.literalText)
            guard !topic.isEmpty else { return slot(.command, commands.map(\.name), spec) }
            guard let target = self.spec(at: topic) else { return slot(.none, [], spec) }
            return slot(.subcommand, target.subcommands.map(\.name), spec)
        case (.settingName, _):
            return slot(.setting, settings.map(\.name), spec)
        case (_, .settingValue):
            // The values of the setting the argument before names (`set output <TAB>`).
            guard index > 0, let name = positionals[index - 1].literalText, let setting = setting(named: name) else {
                return slot(.none, [], spec)
            }
            let words = values(of: setting.valueType)
            return slot(.optionValue(words), words, spec)
        default:
            return slot(argumentSpec.completion, values(of: argumentSpec.valueType), spec)
        }
    }

    /// The option spec that `syntax` names (long name, or short letter), if any.
    static func option(matching syntax: OptionSyntax, in options: [OptionSpec]) -> OptionSpec? {
        if syntax.isLong { return options.first { $0.long == syntax.name } }
        return options.first { option in option.short.map { String($0) == syntax.name } ?? false }
    }

    private func values(of type: ValueType) -> [String] {
        if case .enumeration(let words) = type { return words }
        return []
    }

    /// Resolves every command of a script and returns all diagnostics (empty: the script is valid
    /// as far as the registry can tell before interpolation).
    package func check(_ script: Script) -> [Diagnostic] {
        script.commands.flatMap { command -> [Diagnostic] in
            if case .failure(let diagnostics) = resolve(command) { return diagnostics.all }
            return []
        }
    }
}
