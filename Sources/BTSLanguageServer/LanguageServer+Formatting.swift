import BTSLanguage
import BooksTrackContract

extension LanguageServer {
    /// `textDocument/formatting`: `bts fmt`'s layout as one edit of the whole document; none when
    /// it is formatted already or has syntax errors (which the diagnostics show).
    func formatting(_ document: Document) -> JSONValue {
        guard document.index.bytes.count <= Self.maxDocument,
              case .success(let formatted) = ScriptFormatter.format(document.text, name: "<document>"),
              formatted != document.text else { return [] }
        return [["range": Self.range(0, document.index.bytes.count, in: document.index), "newText": .string(formatted)]]
    }
}
