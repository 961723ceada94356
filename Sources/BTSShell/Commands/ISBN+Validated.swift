import BTSLanguage
import BooksTrackContract

extension ISBN {
    /// Validates an ISBN locally; a bad one is a usage error pointing at the word (no request).
    static func validated(_ text: String, range: SourceRange?) throws(ShellError) -> ISBN {
        do {
            return try ISBN(parsing: text)
        } catch {
            throw ShellError(
                .usage,
                "\(ErrorCode.invalidISBN.userMessage()): \(error.message)",
                range: range,
                code: .invalidISBN
            )
        }
    }
}

extension BoundValue {
    /// The source range covering all of `values`.
    static func range(of values: [BoundValue]) -> SourceRange? {
        guard let first = values.first, let last = values.last else { return nil }
        return first.word.range.union(last.word.range)
    }
}
