import BooksTrackContract

extension LanguageServerParams {
    /// Whether the client of `initialize`'s `params` says it shows a diagnostic's
    /// `relatedInformation` (`capabilities.textDocument.publishDiagnostics.relatedInformation`; not
    /// when it is absent or not `true`): if not, a diagnostic's notes about other places stay in its
    /// message, with their line and column.
    static func showsRelatedInformation(_ params: JSONValue) -> Bool {
        params["capabilities"]?["textDocument"]?["publishDiagnostics"]?["relatedInformation"] == .bool(true)
    }
}
