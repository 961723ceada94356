/// A search answer's `correctedQuery`: what the server searched instead of a query that matched
/// nothing (its spelling corrected: "tolkien" for "tolkein"). Read leniently, as a hint: a missing,
/// null, blank or malformed value is no correction and never fails the answer (servers that do
/// not correct omit it).
package enum CorrectedQuery {
    /// `text` when it says something, else nil.
    package static func reading(_ text: String?) -> String? {
        guard let text, !text.allSatisfy(\.isWhitespace) else { return nil }
        return text
    }
}

extension KeyedFields {
    /// The `correctedQuery` member under `key` (`CorrectedQuery.reading`).
    func decodeCorrectedQuery(forKey key: Key) -> String? {
        CorrectedQuery.reading((try? decodeIfPresent(String.self, forKey: key)) ?? nil)
    }
}
