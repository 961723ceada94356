import BooksTrackContract
import Foundation

/// The library module's export fixtures (real headers: Goodreads' "Export Library", StoryGraph's export).
enum LibraryFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("BooksTrackLibraryTests/Fixtures")

    static func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }
}

/// What a round trip must keep of one book: its shelf, whole-star rating (Goodreads' CSV has whole
/// stars only) and dates.
struct KeptFields: Hashable, CustomStringConvertible {
    var shelf: String
    var stars: Int?
    var dateRead: String?
    var dateAdded: String?

    var description: String {
        "\(shelf) \(stars.map(String.init) ?? "-") read \(dateRead ?? "-") added \(dateAdded ?? "-")"
    }

    /// `library list`'s books by ISBN (or title when they have none).
    static func byBook(_ listResult: JSONValue) -> [String: KeptFields] {
        var out: [String: KeptFields] = [:]
        for book in listResult["books"]?.arrayValue ?? [] {
            let key = book["isbn"]?.stringValue ?? ("title:" + (book["title"]?.stringValue ?? "?"))
            out[key] = KeptFields(
                shelf: book["shelf"]?.stringValue ?? "?",
                stars: book["rating"]?.doubleValue.map { Int($0.rounded(.toNearestOrAwayFromZero)) },
                dateRead: book["dateRead"]?.stringValue,
                dateAdded: book["dateAdded"]?.stringValue
            )
        }
        return out
    }
}
