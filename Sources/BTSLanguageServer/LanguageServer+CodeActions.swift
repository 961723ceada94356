import BTSLanguage
import BooksTrackContract

extension LanguageServer {
    /// The kind of a diagnostic's fix.
    static let quickFixKind = "quickfix"
    /// The kind of "Format document" (`bts fmt`'s layout): what an editor applies on saving with
    /// `source.fixAll`.
    static let formatKind = "source.fixAll"

    /// `textDocument/codeAction`: a quick fix for each diagnostic with a `fixIt` that meets the
    /// range asked about (of the diagnostics published for the document's current text), and
    /// "Format document" when `bts fmt` would change it; only the kinds asked for (`context.only`).
    func codeActions(
        _ document: Document,
        _ asked: LanguageServerParams.CodeActionRequest
    ) -> [LanguageServerResults.CodeAction] {
        func wanted(_ kind: String) -> Bool {
            asked.only.map { $0.contains { kind == $0 || kind.hasPrefix($0 + ".") } } ?? true
        }
        var actions: [LanguageServerResults.CodeAction] = []
        if wanted(Self.quickFixKind), let published = quickFixes[document.uri],
            published.generation == document.generation
        {
            func offset(_ position: TextChange.Position) -> Int {
                document.index.offset(line: position.line, character: position.character)
            }
            let start = offset(asked.range.start)
            let end = max(start, offset(asked.range.end))
            for fix in published.fixes where fix.range.offset <= end && start <= fix.range.end {
                let edit = LanguageServerResults.TextEdit(
                    range: Self.range(fix.fixIt.range.offset, fix.fixIt.range.end, in: document.index),
                    newText: fix.fixIt.replacement
                )
                actions.append(
                    LanguageServerResults.CodeAction(
                        title: Self.title(of: fix.fixIt, in: document.index),
                        kind: Self.quickFixKind,
                        diagnostics: [fix.diagnostic],
                        isPreferred: true,
                        edit: .init(changes: [document.uri: [edit]])
                    )
                )
            }
        }
        if wanted(Self.formatKind), case let edits = formatting(document), !edits.isEmpty {
            actions.append(
                LanguageServerResults.CodeAction(
                    title: "Format document",
                    kind: Self.formatKind,
                    diagnostics: nil,
                    isPreferred: nil,
                    edit: .init(changes: [document.uri: edits])
                )
            )
        }
        return actions
    }

    /// "Replace 'serch' with 'search'" (or "Insert …", "Delete …").
    static func title(of fixIt: Diagnostic.FixIt, in index: LineIndex) -> String {
        let start = min(max(0, fixIt.range.offset), index.bytes.count)
        let end = min(max(start, fixIt.range.end), index.bytes.count)
        let old = quoted(String(decoding: index.bytes[start..<end], as: UTF8.self))
        let new = quoted(fixIt.replacement)
        if start == end { return "Insert \(new)" }
        if fixIt.replacement.isEmpty { return "Delete \(old)" }
        return "Replace \(old) with \(new)"
    }

    /// `'text'`, at most 40 characters of it, an invisible byte order mark shown.
    private static func quoted(_ text: String) -> String {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "'" + DiagnosticRenderer.visible(shown) + "'"
    }
}
