import BTSLanguage
import BooksTrackContract

extension LanguageServer {
    /// `textDocument/formatting`: `bts fmt`'s layout as one edit of the whole document; none when
    /// it is formatted already or has syntax errors (which the diagnostics show). Kept for the
    /// document's generation: code action requests (at every move of the cursor) ask again.
    func formatting(_ document: Document) -> [LanguageServerResults.TextEdit] {
        if let last = lastFormatting, last.uri == document.uri, last.generation == document.generation {
            return last.edits
        }
        var edits: [LanguageServerResults.TextEdit] = []
        if document.index.bytes.count <= Self.maxDocument,
            case .success(let formatted) = ScriptFormatter.format(document.text, name: "<document>"),
            formatted != document.text
        {
            edits = [.init(range: Self.range(0, document.index.bytes.count, in: document.index), newText: formatted)]
        }
        lastFormatting = (document.uri, document.generation, edits)
        return edits
    }
}
