import BooksTrackContract
import Foundation
import Hummingbird
import HummingbirdCore

/// Reads and validates query parameters, throwing the contract's 400 errors.
struct QueryParameters {
    /// The query, split once (Hummingbird splits it again on every `queryParameters` read).
    let parameters: FlatDictionary<Substring, Substring>

    init(_ request: Request) { self.parameters = request.uri.queryParameters }

    /// The trimmed value of the first `name` parameter; nil when absent or blank.
    func string(_ name: String) -> String? {
        guard let raw = parameters[Substring(name)] else { return nil }
        let trimmed = String(raw).trimmingWhitespace()
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    /// A required text parameter, cut to `maxLength` characters; 400 `MISSING_PARAMETER` when absent.
    func required(_ name: String, maxLength: Int = 200) throws -> String {
        guard let value = string(name) else { throw APIError.missingParameter(name) }
        return String(value.prefix(maxLength))
    }

    /// An optional text parameter cut to `maxLength`.
    func optional(_ name: String, maxLength: Int = 200) -> String? {
        string(name).map { String($0.prefix(maxLength)) }
    }

    /// An integer parameter in `range` (default when absent); 400 `INVALID_REQUEST` otherwise.
    func int(_ name: String, default defaultValue: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = string(name) else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw APIError.invalidParameter(
                name,
                "'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text.prefix(40))'"
            )
        }
        return value
    }

    /// An ISBN parameter; 400 `MISSING_PARAMETER` when absent, `INVALID_ISBN` when malformed.
    func isbn(_ name: String = "isbn") throws -> ISBN {
        guard let text = string(name) else { throw APIError.missingParameter(name) }
        return try Self.parseISBN(text)
    }

    static func parseISBN(_ text: String) throws -> ISBN {
        do {
            return try ISBN(parsing: String(text.prefix(64)))
        } catch {
            throw APIError(
                .invalidISBN,
                "\(ErrorCode.invalidISBN.userMessage()): \(error.message)",
                details: ["isbn": .string(String(text.prefix(64)))]
            )
        }
    }
}
