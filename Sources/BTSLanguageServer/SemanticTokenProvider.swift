import BTSLanguage
import BTSShell

/// `textDocument/semanticTokens/…`: a document's highlighted pieces (``ScriptHighlights``) as LSP's
/// token integers (``SemanticTokenData``), whole, as a delta from a result kept in a
/// ``SemanticTokenStore`` (the server's), or cut to a range.
enum SemanticTokenProvider {
    /// The most tokens sent for a document (five integers each); the text after the last is left to
    /// the editor's grammar.
    static let maxTokens = 500_000

    /// The highlighted pieces of `index`'s text (at most ``maxTokens``).
    static func highlights(_ index: LineIndex, registry: CommandRegistry) -> ScriptHighlights {
        ScriptHighlights(
            SourceFile(name: "<document>", text: index.text),
            vocabulary: ScriptHighlights.Vocabulary(registry),
            maxPieces: maxTokens
        )
    }

    /// `textDocument/semanticTokens/full`: every token, with an id (recorded in `store`) a later
    /// delta can name.
    static func full(
        _ index: LineIndex,
        uri: String,
        registry: CommandRegistry,
        store: inout SemanticTokenStore
    ) -> LanguageServerResults.SemanticTokens {
        let data = SemanticTokenData.encode(highlights(index, registry: registry).pieces, in: index.bytes)
        return .init(resultId: store.record(data, for: uri), data: data)
    }

    /// `textDocument/semanticTokens/full/delta`: the edits from the result `previous` (when it is
    /// the one `store` keeps for the document), else the whole result.
    static func delta(
        _ index: LineIndex,
        uri: String,
        previous: String?,
        registry: CommandRegistry,
        store: inout SemanticTokenStore
    ) -> any Encodable {
        guard let previous, let old = store.data(of: uri, id: previous) else {
            return full(index, uri: uri, registry: registry, store: &store)
        }
        let data = SemanticTokenData.encode(highlights(index, registry: registry).pieces, in: index.bytes)
        let edits = SemanticTokenData.delta(from: old, to: data)
        return LanguageServerResults.SemanticTokensDelta(resultId: store.record(data, for: uri), edits: edits)
    }

    /// `textDocument/semanticTokens/range`: the tokens in `range` (cut at its ends).
    static func range(
        _ index: LineIndex,
        _ range: TextChange.Span,
        registry: CommandRegistry
    ) -> LanguageServerResults.SemanticTokens {
        let (start, end) = (index.offset(range.start), index.offset(range.end))
        guard start < end else { return .init(resultId: nil, data: []) }
        let data = SemanticTokenData.encode(
            highlights(index, registry: registry).pieces,
            in: index.bytes,
            range: start..<end
        )
        return .init(resultId: nil, data: data)
    }
}
