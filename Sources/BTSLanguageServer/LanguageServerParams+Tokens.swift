extension LanguageServerParams {
    /// `semanticTokens/full/delta`'s `previousResultId` (nil when it is not a string).
    struct SemanticTokensDeltaRequest: Decodable {
        var previousResultId: String?

        enum CodingKeys: String, CodingKey { case previousResultId }

        init(from decoder: any Decoder) {
            let fields = try? decoder.container(keyedBy: CodingKeys.self)
            previousResultId = try? fields?.decode(String.self, forKey: .previousResultId)
        }
    }
}
