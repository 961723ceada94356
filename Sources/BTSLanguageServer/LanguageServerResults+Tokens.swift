extension LanguageServerResults {
    // MARK: textDocument/semanticTokens

    /// The capability: the legend, once; whole documents (with deltas) and ranges.
    struct SemanticTokensOptions: Encodable {
        struct Legend: Encodable {
            var tokenTypes: [String]
            var tokenModifiers: [String]
        }

        struct Full: Encodable {
            var delta: Bool
        }

        var legend: Legend
        var full: Full
        var range: Bool

        static let standard = SemanticTokensOptions(
            legend: .init(
                tokenTypes: SemanticTokenType.allCases.map(\.name),
                tokenModifiers: SemanticTokenModifier.allCases.map(\.name)
            ),
            full: .init(delta: true),
            range: true
        )
    }

    /// `semanticTokens/full` and `/range`: five integers a token, each relative to the one before.
    struct SemanticTokens: Encodable {
        /// Left out for a range.
        var resultId: String?
        var data: [Int]
    }

    /// `semanticTokens/full/delta`: the edits that make the previous result's data this one's.
    struct SemanticTokensDelta: Encodable {
        struct Edit: Encodable, Equatable {
            var start: Int
            var deleteCount: Int
            var data: [Int]
        }

        var resultId: String
        var edits: [Edit]
    }

    // MARK: textDocument/foldingRange

    struct FoldingRange: Encodable, Equatable {
        var startLine: Int
        var endLine: Int
        /// `comment` for a run of comment lines; left out for a block.
        var kind: String?
    }
}
