import BTSLanguage

extension LanguageServer {
    /// The most tokens sent for a document (five integers each); the text after the last is left to
    /// the editor's grammar.
    static let maxSemanticTokens = 500_000

    /// The highlighted pieces of `document` (at most ``maxSemanticTokens``).
    func highlights(_ document: Document) -> ScriptHighlights {
        ScriptHighlights(
            SourceFile(name: "<document>", text: document.text),
            vocabulary: ScriptHighlights.Vocabulary(registry),
            maxPieces: Self.maxSemanticTokens
        )
    }

    /// `textDocument/semanticTokens/full`: every token, with an id a later delta can name.
    func semanticTokens(_ document: Document) -> LanguageServerResults.SemanticTokens {
        let data = SemanticTokenData.encode(highlights(document).pieces, in: document.index.bytes)
        return .init(resultId: semanticTokenResults.record(data, for: document.uri), data: data)
    }

    /// `textDocument/semanticTokens/full/delta`: the edits from the result `previous` (when it is
    /// the one kept for the document), else the whole result.
    func semanticTokensDelta(_ document: Document, previous: String?) -> any Encodable {
        guard let previous, let old = semanticTokenResults.data(of: document.uri, id: previous) else {
            return semanticTokens(document)
        }
        let data = SemanticTokenData.encode(highlights(document).pieces, in: document.index.bytes)
        let edits = SemanticTokenData.delta(from: old, to: data)
        return LanguageServerResults.SemanticTokensDelta(
            resultId: semanticTokenResults.record(data, for: document.uri),
            edits: edits
        )
    }

    /// `textDocument/semanticTokens/range`: the tokens in `range` (cut at its ends).
    func semanticTokens(_ document: Document, in range: TextChange.Span) -> LanguageServerResults.SemanticTokens {
        let index = document.index
        let (start, end) = (
            index.offset(line: range.start.line, character: range.start.character),
            index.offset(line: range.end.line, character: range.end.character)
        )
        guard start < end else { return .init(resultId: nil, data: []) }
        let data = SemanticTokenData.encode(highlights(document).pieces, in: index.bytes, range: start..<end)
        return .init(resultId: nil, data: data)
    }
}
