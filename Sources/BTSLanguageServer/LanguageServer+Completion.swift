import BTSLanguage
import BTSShell
import BooksTrackContract
import Foundation

extension LanguageServer {
    /// `textDocument/completion`: what TAB offers at the prompt for the cursor's line (the same
    /// engine and registry), with the variables and aliases the document defines above the cursor.
    /// After `${_.`, `${LOOPVAR.` or `${_http.`, the declared fields (``fieldCompletion(in:at:)``).
    func completion(in document: Document, at offset: Int) -> LanguageServerResults.CompletionList {
        if let fields = fieldCompletion(in: document, at: offset) { return fields }
        let line = document.index.line(of: offset)
        let lineBytes = document.index.lineBytes(line)
        let text = String(decoding: lineBytes, as: UTF8.self)
        let cursor = offset - lineBytes.startIndex
        let defined = visibleDefinitions(in: document, at: offset)
        var context = completionStore.completionContext
        context.variables.formUnion(defined.variables)
        let engine = CompletionEngine(registry: registry, context: context)
        let answer = engine.answer(line: text, cursorOffset: cursor)
        var candidates = answer.candidates
        let range = Self.range(
            lineBytes.startIndex + answer.range.lowerBound,
            lineBytes.startIndex + answer.range.upperBound,
            in: document.index
        )
        let typed = String(
            decoding: lineBytes[
                (lineBytes.startIndex + answer.range.lowerBound)..<(lineBytes.startIndex + answer.range.upperBound)
            ],
            as: UTF8.self
        )
        // At a command's place, the aliases defined above are commands too.
        let commandPlace =
            answer.candidates.contains { registry.command(named: $0) != nil || Parser.keywords.contains($0) }
            || (answer.candidates.isEmpty && Self.startsCommand(lineBytes, at: answer.range.lowerBound))
        if commandPlace {
            candidates += defined.aliases.filter { $0.hasPrefix(typed) && !candidates.contains($0) }.sorted()
        }
        let items = candidates.enumerated().map { position, candidate in
            LanguageServerResults.CompletionItem(
                label: answer.display?[position] ?? candidate,
                kind: kind(of: candidate, aliases: defined.aliases),
                sortText: String(format: "%05d", position),
                filterText: candidate,
                textEdit: .init(range: range, newText: candidate)
            )
        }
        return LanguageServerResults.CompletionList(isIncomplete: false, items: items)
    }

    /// LSP's completion kinds: 3 function (a command or an alias), 14 keyword, 10 property (an
    /// option), 6 variable, 17 file, 12 value.
    private func kind(of candidate: String, aliases: Set<String>) -> Int {
        if Parser.keywords.contains(candidate) { return 14 }
        if registry.command(named: candidate) != nil || aliases.contains(candidate) { return 3 }
        if candidate.hasPrefix("-") { return 10 }
        if candidate.hasPrefix("$") { return 6 }
        if candidate.contains("/") { return 17 }
        return 12
    }

    /// Whether byte `offset` of a line is where a command starts (only blanks or a `;` before it).
    static func startsCommand(_ line: ArraySlice<UInt8>, at offset: Int) -> Bool {
        var index = line.startIndex + offset - 1
        while index >= line.startIndex {
            let byte = line[index]
            if byte == UInt8(ascii: ";") { return true }
            if byte != 32, byte != 9 { return false }
            index -= 1
        }
        return true
    }

    /// The variables (`set NAME`, `for NAME in`) and aliases (`alias NAME`) the lines before
    /// `offset` define.
    static func definitions(in text: String, before offset: Int) -> (variables: Set<String>, aliases: Set<String>) {
        let prefix = String(decoding: Array(text.utf8.prefix(offset)), as: UTF8.self)
        let lines = prefix.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let parsed = Parser.parse(lines.joined(separator: "\n"), name: "<document>")
        var variables = Set<String>()
        var aliases = Set<String>()
        func walk(_ statements: [Statement]) {
            for statement in statements {
                switch statement {
                case .command(let command):
                    if let name = ScriptChecker.variable(assignedBy: command) { variables.insert(name) }
                    if let name = ScriptChecker.alias(definedBy: command) { aliases.insert(name) }
                case .forLoop(let loop):
                    variables.insert(loop.variable)
                    walk(loop.body)
                case .whileLoop(let loop): walk(loop.body)
                case .conditional(let conditional):
                    for branch in conditional.branches { walk(branch.body) }
                    walk(conditional.elseBody ?? [])
                case .loopControl: continue
                }
            }
        }
        walk(parsed.script.statements)
        // An open block above the cursor is not a statement yet: its loop variable still counts.
        for word in lines.compactMap({ $0.split(separator: " ", omittingEmptySubsequences: true) })
        where word.count >= 3 && word[0] == "for" && word[2] == "in" && Parser.isVariableName(String(word[1])) {
            variables.insert(String(word[1]))
        }
        return (variables, aliases)
    }
}
