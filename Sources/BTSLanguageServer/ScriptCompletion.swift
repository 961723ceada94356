import BTSLanguage
import BTSShell
import BooksTrackContract
import Foundation

/// `textDocument/completion`: what TAB offers at the prompt for the cursor's line (the same engine
/// and registry), with the variables and aliases the document defines above the cursor. After
/// `${_.`, `${LOOPVAR.` or `${_http.`, the declared fields (``FieldCompletion``).
enum ScriptCompletion {
    /// The completion at `offset` of `index`'s text, with what `context` (the snapshot of the
    /// reader's files) knows.
    static func list(
        in index: LineIndex,
        at offset: Int,
        registry: CommandRegistry,
        context: CompletionContext
    ) -> LanguageServerResults.CompletionList {
        if let fields = FieldCompletion.list(in: index, at: offset, registry: registry) { return fields }
        let line = index.line(of: offset)
        let lineBytes = index.lineBytes(line)
        let text = String(decoding: lineBytes, as: UTF8.self)
        let cursor = offset - lineBytes.startIndex
        let defined = visibleDefinitions(Navigation.bindings(of: index, registry: registry), at: offset)
        var context = context
        context.variables.formUnion(defined.variables)
        let engine = CompletionEngine(registry: registry, context: context)
        let answer = engine.answer(line: text, cursorOffset: cursor)
        var candidates = answer.candidates
        let range = index.range(
            lineBytes.startIndex + answer.range.lowerBound,
            lineBytes.startIndex + answer.range.upperBound
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
            || (answer.candidates.isEmpty && startsCommand(lineBytes, at: answer.range.lowerBound))
        if commandPlace {
            candidates += defined.aliases.filter { $0.hasPrefix(typed) && !candidates.contains($0) }.sorted()
        }
        let items = candidates.enumerated().map { position, candidate in
            LanguageServerResults.CompletionItem(
                label: answer.display?[position] ?? candidate,
                kind: kind(of: candidate, aliases: defined.aliases, registry: registry),
                sortText: String(format: "%05d", position),
                filterText: candidate,
                textEdit: .init(range: range, newText: candidate)
            )
        }
        return LanguageServerResults.CompletionList(isIncomplete: false, items: items)
    }

    /// LSP's completion kinds: 3 function (a command or an alias), 14 keyword, 10 property (an
    /// option), 6 variable, 17 file, 12 value.
    private static func kind(of candidate: String, aliases: Set<String>, registry: CommandRegistry) -> Int {
        if Parser.keywords.contains(candidate) { return 14 }
        if registry.command(named: candidate) != nil || aliases.contains(candidate) { return 3 }
        if candidate.hasPrefix("-") { return 10 }
        if candidate.hasPrefix("$") { return 6 }
        if candidate.contains("/") { return 17 }
        return 12
    }

    /// The names completion offers at `offset`: the variables a read there can see (a loop's only
    /// inside its loop) and the aliases defined before it (``ScriptBindings/bindings(at:)``).
    static func visibleDefinitions(
        _ bindings: ScriptBindings,
        at offset: Int
    ) -> (variables: Set<String>, aliases: Set<String>) {
        let visible = bindings.bindings(at: offset)
        return (
            Set(visible.filter { $0.kind != .alias }.map(\.name)),
            Set(visible.filter { $0.kind == .alias }.map(\.name))
        )
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
}
