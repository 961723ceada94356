import BTSLanguage
import BooksTrackContract

/// `textDocument/codeAction`: a quick fix for each diagnostic with a `fixIt` that meets the range
/// asked about (of the quick fixes the server published for the document's current text), and
/// "Format document" when `bts fmt` would change it; only the kinds asked for (`context.only`).
enum CodeActions {
    /// The kind of a diagnostic's fix.
    static let quickFixKind = "quickfix"
    /// The kind of "Format document" (`bts fmt`'s layout): what an editor applies on saving with
    /// `source.fixAll`.
    static let formatKind = "source.fixAll"

    /// The actions for `asked` in the document `uri`: `fixes` are the quick fixes published for
    /// its current text (nil when none were), `formatting` its whole formatting's edits (asked
    /// for only when that kind is wanted).
    static func actions(
        _ asked: LanguageServerParams.CodeActionRequest,
        in index: LineIndex,
        uri: String,
        fixes: [QuickFix]?,
        formatting: () -> [LanguageServerResults.TextEdit]
    ) -> [LanguageServerResults.CodeAction] {
        func wanted(_ kind: String) -> Bool {
            asked.only.map { $0.contains { kind == $0 || kind.hasPrefix($0 + ".") } } ?? true
        }
        var actions: [LanguageServerResults.CodeAction] = []
        if wanted(quickFixKind), let fixes {
            let start = index.offset(asked.range.start)
            let end = max(start, index.offset(asked.range.end))
            for fix in fixes where fix.range.offset <= end && start <= fix.range.end {
                let edit = LanguageServerResults.TextEdit(
                    range: index.range(fix.fixIt.range.offset, fix.fixIt.range.end),
                    newText: fix.fixIt.replacement
                )
                actions.append(
                    LanguageServerResults.CodeAction(
                        title: title(of: fix.fixIt, in: index),
                        kind: quickFixKind,
                        diagnostics: [fix.diagnostic],
                        isPreferred: true,
                        edit: .init(changes: [uri: [edit]])
                    )
                )
            }
        }
        if wanted(formatKind), case let edits = formatting(), !edits.isEmpty {
            actions.append(
                LanguageServerResults.CodeAction(
                    title: "Format document",
                    kind: formatKind,
                    diagnostics: nil,
                    isPreferred: nil,
                    edit: .init(changes: [uri: edits])
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
