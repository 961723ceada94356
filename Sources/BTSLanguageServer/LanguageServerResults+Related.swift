extension LanguageServerResults {
    /// A range of a document.
    struct Location: Encodable, Sendable {
        var uri: String
        var range: Range
    }

    /// A diagnostic's note about another place (`first given here`, `to match this '['`).
    struct RelatedInformation: Encodable, Sendable {
        var location: Location
        var message: String
    }
}
