import BTSLanguage
import BTSShell

/// Hover on a word's own meaning: a keyword (its syntax and an example: ``KeywordReference``), a
/// result field inside `${…}` (its type and description, from ``ResultFieldScope``), `${env.NAME}`
/// (which variable it reads, never its value), `$_` and `$_http` themselves.
enum WordHover {
    /// The hover of the word at `offset` of `parsed` (the text `index` is of); nil elsewhere (a
    /// command's help answers then).
    static func hover(
        _ parsed: ParseResult,
        at offset: Int,
        in index: LineIndex,
        registry: CommandRegistry
    ) -> LanguageServerResults.Hover? {
        var first: Word?
        for token in Lexer.tokenize(parsed.source).tokens {
            guard let word = token.word else {
                first = nil
                continue
            }
            let commandWord = first == nil
            if commandWord { first = word }
            guard word.range.offset <= offset, offset <= word.range.end else { continue }
            if let text = word.literalText, !word.isQuoted, let entry = KeywordReference.entry(text) {
                let conditional = first?.literalText.map { conditionCommands.contains($0) } ?? false
                guard entry.isConditionWord ? conditional && !commandWord : commandWord else { return nil }
                return ScriptHover.hover(entry.text, range: word.range, in: index)
            }
            for part in word.parts {
                guard case .variable(let reference) = part, reference.range.offset <= offset,
                    offset <= reference.range.end
                else { continue }
                let scope = ResultFieldScope(script: parsed.script, registry: registry)
                return referenceHover(reference, scope: scope, source: parsed.source, at: offset).map {
                    ScriptHover.hover($0.text, range: $0.range, in: index)
                }
            }
            return nil
        }
        return nil
    }

    /// The commands whose words are a condition.
    static let conditionCommands: Set<String> = ["expect", "if", "elif", "while"]

    /// What a `${…}` reference's part under `offset` means, and the part's range.
    private static func referenceHover(
        _ reference: VariableReference,
        scope: ResultFieldScope,
        source: SourceFile,
        at offset: Int
    ) -> (text: String, range: SourceRange)? {
        let components = reference.path.components
        if reference.name == Parser.environmentName {
            guard case .key(let name)? = components.first, components.count == 1 else { return nil }
            return (
                "${env.\(name)}: the environment variable \(name), as text, read when the line runs "
                    + "(an unset one is an error unless the word gives a default: ${env.\(name):-VALUE})",
                reference.range
            )
        }
        let place = reference.range.offset
        if reference.nameRange.offset <= offset, offset <= reference.nameRange.end {
            return nameHover(reference.name, scope: scope, source: source, at: place).map { ($0, reference.nameRange) }
        }
        guard
            let index = reference.componentRanges.firstIndex(where: { $0.offset <= offset && offset <= $0.end }),
            index < components.count
        else { return nil }
        let range = reference.componentRanges[index]
        let shown = "${\(reference.name)\(ValuePath(Array(components[...index])).description)}"
        guard let parent = scope.kind(of: reference.name, path: Array(components[..<index]), at: place) else {
            return nil
        }
        switch (components[index], parent) {
        case (.key(let key), .record(let shape)):
            guard let field = shape[key] else { return nil }
            let optional = field.isOptional ? " (optional)" : ""
            return ("\(shown): \(field.kind.name)\(optional)\n\n\(field.summary)", range)
        case (.key(let key), .object) where reference.name == Parser.exchangeName:
            return (
                "\(shown): string\n\nthe response's \(key) header (repeated values joined with ', '; secrets masked)",
                range
            )
        case (.index, .list(let element)), (.key, .list(let element)):
            return ("\(shown): \(element.name)\n\nan element of the list", range)
        case (.all, .list(let element)):
            return ("\(shown): list of \(element.name)\n\nevery element of the list", range)
        default:
            return nil
        }
    }

    /// `$_` (whose result it is, and its fields) and `$_http`; nil for other names (variables).
    private static func nameHover(
        _ name: String,
        scope: ResultFieldScope,
        source: SourceFile,
        at offset: Int
    ) -> String? {
        func fields(_ shape: ResultShape) -> String {
            shape.fields.map { "\($0.name): \($0.kind.name)" }.joined(separator: "\n")
        }
        switch name {
        case "_":
            guard let last = scope.lastResult(at: offset) else {
                return "$_: the result of the command before (none runs before this line)"
            }
            guard let command = last.command else { return "$_: the result of the command before" }
            let line = source.line(containing: command.range.offset)
            return "$_: the result of '\(command.nameText)' (line \(line))\n\n" + fields(last.shape)
        case Parser.exchangeName:
            return "$_http: the last HTTP exchange (left as it was by a command that made no request)\n\n"
                + fields(.exchange)
        default:
            return nil
        }
    }
}
