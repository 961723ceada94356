import BTSLanguage
import BTSShell
import BooksTrackContract

/// `textDocument/hover`: on a variable or an alias, where it is set (``VariableHover``); on a
/// keyword, its syntax and an example; on a result field, `$_`, `$_http` or `${env.NAME}` inside
/// `${…}`, what it holds (``WordHover``); on a command's name (or its subcommand), that command's
/// help; on an option, the option's line of it; elsewhere nothing.
enum ScriptHover {
    /// The hover at `offset` of `index`'s text.
    static func hover(in index: LineIndex, at offset: Int, registry: CommandRegistry) -> LanguageServerResults.Hover? {
        let bindings = Navigation.bindings(of: index, registry: registry)
        if let hover = VariableHover.hover(bindings, at: offset, in: index) { return hover }
        let parsed = Parser.parse(index.text, name: "<document>")
        if let hover = WordHover.hover(parsed, at: offset, in: index, registry: registry) { return hover }
        guard
            let command = parsed.script.commands.first(where: { $0.range.offset <= offset && offset <= $0.range.end }),
            var spec = registry.command(named: command.nameText)
        else { return nil }
        let renderer = HelpRenderer(registry: registry)
        let name = command.name.range
        if name.offset <= offset, offset <= name.end, let text = renderer.help(for: [spec.name]) {
            return hover(text, range: name, in: index)
        }
        if let first = command.arguments.first, first.option == nil, let text = first.word.literalText,
            let sub = spec.subcommand(named: text)
        {
            if first.range.offset <= offset, offset <= first.range.end,
                let help = renderer.help(for: [spec.name, sub.name])
            {
                return hover(help, range: first.range, in: index)
            }
            spec = sub
        }
        for argument in command.arguments {
            guard let option = argument.option, option.nameRange.offset <= offset, offset <= option.nameRange.end else {
                continue
            }
            let found =
                option.isLong
                ? spec.option(long: option.name) : spec.options.first { $0.short.map(String.init) == option.name }
            guard let found else { return nil }
            let short = found.short.map { "-\($0), " } ?? ""
            return hover("\(short)\(found.synopsis)\n\n\(found.help)", range: option.nameRange, in: index)
        }
        return nil
    }

    /// A hover showing `text` over `range`.
    static func hover(_ text: String, range: SourceRange, in index: LineIndex) -> LanguageServerResults.Hover {
        LanguageServerResults.Hover(contents: .init(value: text), range: index.range(range.offset, range.end))
    }
}
