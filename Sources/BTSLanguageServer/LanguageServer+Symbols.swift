import BTSLanguage
import BTSShell
import BooksTrackContract

extension LanguageServer {
    /// `textDocument/documentSymbol`: aliases (functions), variables set at the top level of a
    /// block, and blocks (`for`, `while`, `if`) with what they hold.
    func symbols(_ document: Document) -> [LanguageServerResults.DocumentSymbol] {
        let parsed = Parser.parse(document.text, name: "<document>")
        return symbols(parsed.script.statements, document.index).map(\.result)
    }

    struct Symbol {
        var name: String
        var kind: Int
        var range: SourceRange
        var selection: SourceRange
        var children: [Symbol]
        var index: LineIndex

        var result: LanguageServerResults.DocumentSymbol {
            LanguageServerResults.DocumentSymbol(
                name: name,
                kind: kind,
                range: LanguageServer.range(range.offset, range.end, in: index),
                selectionRange: LanguageServer.range(selection.offset, selection.end, in: index),
                children: children.isEmpty ? nil : children.map(\.result)
            )
        }
    }

    /// LSP's symbol kinds: 12 function, 13 variable, 3 namespace (a block).
    private func symbols(_ statements: [Statement], _ index: LineIndex) -> [Symbol] {
        statements.compactMap { statement -> Symbol? in
            switch statement {
            case .command(let command):
                guard let first = command.arguments.first else { return nil }
                if let name = ScriptChecker.alias(definedBy: command) {
                    return Symbol(
                        name: name,
                        kind: 12,
                        range: command.range,
                        selection: first.range,
                        children: [],
                        index: index
                    )
                }
                if let name = ScriptChecker.variable(assignedBy: command) {
                    return Symbol(
                        name: "$" + name,
                        kind: 13,
                        range: command.range,
                        selection: first.range,
                        children: [],
                        index: index
                    )
                }
                return nil
            case .forLoop(let loop):
                return block("for \(loop.variable)", header: loop.range, loop.body, end: loop.end, index)
            case .whileLoop(let loop):
                return block(Self.header(loop.condition), header: loop.condition.range, loop.body, end: loop.end, index)
            case .conditional(let conditional):
                guard let first = conditional.branches.first else { return nil }
                let bodies = conditional.branches.flatMap(\.body) + (conditional.elseBody ?? [])
                return block(
                    Self.header(first.condition),
                    header: first.condition.range,
                    bodies,
                    end: conditional.end,
                    index
                )
            case .loopControl:
                return nil
            }
        }
    }

    /// A block from its header to its `end`.
    private func block(
        _ name: String,
        header: SourceRange,
        _ body: [Statement],
        end: SourceRange?,
        _ index: LineIndex
    ) -> Symbol {
        let children = symbols(body, index)
        let range = end.map(header.union) ?? body.reduce(header) { $0.union(Self.range(of: $1)) }
        return Symbol(name: name, kind: 3, range: range, selection: header, children: children, index: index)
    }

    /// `while $i < 3`, `if exists ${x}`: a condition's first words.
    private static func header(_ condition: Command) -> String {
        let words = [condition.nameText] + condition.arguments.map(\.word.sourceForm)
        let text = words.joined(separator: " ")
        return text.count > 60 ? String(text.prefix(60)) + "…" : text
    }

    /// The source a statement covers (a block from its header to its `end`).
    private static func range(of statement: Statement) -> SourceRange {
        switch statement {
        case .command(let command): return command.range
        case .forLoop(let loop): return loop.end.map(loop.range.union) ?? loop.range
        case .whileLoop(let loop): return loop.end.map(loop.condition.range.union) ?? loop.condition.range
        case .conditional(let conditional):
            let header = conditional.branches.first?.condition.range ?? SourceRange(offset: 0, length: 0)
            return conditional.end.map(header.union) ?? header
        case .loopControl(let control): return control.range
        }
    }
}
