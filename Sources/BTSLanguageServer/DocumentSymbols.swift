import BTSLanguage
import BTSShell
import BooksTrackContract

/// `textDocument/documentSymbol`: aliases (functions), variables set at the top level of a block,
/// and blocks (`for`, `while`, `if`) with what they hold; of a broken document, those of what
/// parses (``statements(_:)``, which the bindings of ``Navigation`` are read from too).
enum DocumentSymbols {
    /// The symbols of `index`'s text.
    static func of(_ index: LineIndex) -> [LanguageServerResults.DocumentSymbol] {
        symbols(statements(index.text), index).map(\.result)
    }

    /// How many quotes (or `${`) left open the symbols' parse passes over (each a parse of the
    /// whole text again).
    static let maxReparses = 16

    /// The statements symbols are read from: the text's parse, where a block never closed still
    /// holds what follows it and a command with an error is left out (the parser's recovery). But
    /// a quote or a `${` left open runs to the end of the input, one word that hides every line
    /// after it: then the text is parsed again with that opening and the rest of its line blanked
    /// (every other byte where it was, so the ranges stay), up to ``maxReparses`` times.
    static func statements(_ text: String) -> [Statement] {
        var parsed = Parser.parse(SourceFile(name: "<document>", text: text))
        var bytes: [UInt8] = []
        var reparses = 0
        while parsed.isIncomplete, reparses < maxReparses,
            let open = Lexer.tokenize(parsed.source).diagnostics.first(where: \.isIncompleteInput)
        {
            if bytes.isEmpty { bytes = Array(text.utf8) }
            var end = open.range.offset
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            guard open.range.offset >= 0, open.range.offset < end else { break }
            for offset in open.range.offset..<end { bytes[offset] = UInt8(ascii: " ") }
            parsed = Parser.parse(SourceFile(name: "<document>", text: String(decoding: bytes, as: UTF8.self)))
            reparses += 1
        }
        return parsed.script.statements
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
                range: index.range(range.offset, range.end),
                selectionRange: index.range(selection.offset, selection.end),
                children: children.isEmpty ? nil : children.map(\.result)
            )
        }
    }

    /// LSP's symbol kinds: 12 function, 13 variable, 3 namespace (a block).
    private static func symbols(_ statements: [Statement], _ index: LineIndex) -> [Symbol] {
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

    /// A block from its header to its `end` (``extent(_:_:end:)``).
    private static func block(
        _ name: String,
        header: SourceRange,
        _ body: [Statement],
        end: SourceRange?,
        _ index: LineIndex
    ) -> Symbol {
        let children = symbols(body, index)
        let range = Self.extent(header, body, end: end)
        return Symbol(name: name, kind: 3, range: range, selection: header, children: children, index: index)
    }

    /// `while $i < 3`, `if exists ${x}`: a condition's first words.
    private static func header(_ condition: Command) -> String {
        let words = [condition.nameText] + condition.arguments.map(\.word.sourceForm)
        let text = words.joined(separator: " ")
        return text.count > 60 ? String(text.prefix(60)) + "…" : text
    }

    /// The source a statement covers (a block from its header to its `end`, ``extent(_:_:end:)``).
    private static func range(of statement: Statement) -> SourceRange {
        switch statement {
        case .command(let command): return command.range
        case .forLoop(let loop): return extent(loop.range, loop.body, end: loop.end)
        case .whileLoop(let loop): return extent(loop.condition.range, loop.body, end: loop.end)
        case .conditional(let conditional):
            let header = conditional.branches.first?.condition.range ?? SourceRange(offset: 0, length: 0)
            let last = conditional.branches.last.map { header.union($0.condition.range) } ?? header
            let body = conditional.elseBody.flatMap { $0.isEmpty ? nil : $0 } ?? conditional.branches.last?.body ?? []
            return extent(last, body, end: conditional.end)
        case .loopControl(let control): return control.range
        }
    }

    /// A block from `header` to its `end`; one never closed, to the end of its last statement (a
    /// block in it included), so that it holds what it lists.
    private static func extent(_ header: SourceRange, _ body: [Statement], end: SourceRange?) -> SourceRange {
        if let end { return header.union(end) }
        guard let last = body.last else { return header }
        return header.union(range(of: last))
    }
}
