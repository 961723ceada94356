import BTSLanguage
import BTSShell
import BooksTrackContract

extension LanguageServer {
    /// `textDocument/hover`: on a keyword, its syntax and an example; on a result field, `$_`,
    /// `$_http` or `${env.NAME}` inside `${…}`, what it holds (``wordHover(in:parsed:at:)``); on a
    /// command's name (or its subcommand), that command's help; on an option, the option's line of
    /// it; elsewhere nothing.
    func hover(in document: Document, at offset: Int) -> LanguageServerResults.Hover? {
        if let hover = variableHover(in: document, at: offset) { return hover }
        let parsed = Parser.parse(document.text, name: "<document>")
        if let hover = wordHover(in: document, parsed: parsed, at: offset) { return hover }
        guard
            let command = parsed.script.commands.first(where: { $0.range.offset <= offset && offset <= $0.range.end }),
            var spec = registry.command(named: command.nameText)
        else { return nil }
        let renderer = HelpRenderer(registry: registry)
        let name = command.name.range
        if name.offset <= offset, offset <= name.end, let text = renderer.help(for: [spec.name]) {
            return Self.hover(text, range: name, in: document.index)
        }
        if let first = command.arguments.first, first.option == nil, let text = first.word.literalText,
            let sub = spec.subcommand(named: text)
        {
            if first.range.offset <= offset, offset <= first.range.end,
                let help = renderer.help(for: [spec.name, sub.name])
            {
                return Self.hover(help, range: first.range, in: document.index)
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
            return Self.hover("\(short)\(found.synopsis)\n\n\(found.help)", range: option.nameRange, in: document.index)
        }
        return nil
    }

    static func hover(_ text: String, range: SourceRange, in index: LineIndex) -> LanguageServerResults.Hover {
        LanguageServerResults.Hover(contents: .init(value: text), range: Self.range(range.offset, range.end, in: index))
    }
}
