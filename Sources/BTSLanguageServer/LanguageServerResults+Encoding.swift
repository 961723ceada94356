import BooksTrackContract

extension LanguageServerResults {
    /// `message` as the JSON written to the stream (and handed to the tests): encoded straight into
    /// a ``JSONValue`` tree by `JSONValue.encoding(_:)`, with no text in between (a document's
    /// symbols may be 200,000 of them). The results are plain values whose encoding does not
    /// throw; one that did would be `null`.
    static func json(_ message: some Encodable) -> JSONValue {
        JSONValue.encoding(message)
    }
}
