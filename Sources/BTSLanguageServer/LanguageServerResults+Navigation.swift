extension LanguageServerResults {
    // textDocument/definition and textDocument/references answer Locations (LanguageServerResults+Related).

    // MARK: textDocument/prepareRename, textDocument/rename

    /// `renameProvider`: the server answers `prepareRename`.
    struct RenameOptions: Encodable {
        var prepareProvider: Bool
    }

    /// What `prepareRename` found: the name's range and the text to start from.
    struct PrepareRename: Encodable, Equatable {
        var range: Range
        var placeholder: String
    }
}
