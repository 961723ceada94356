import BooksTrackLibrary
import Foundation
@_exported import TestSupport

/// A library in its own temp directory with a fixed "today"; `cleanup()` removes it.
struct TempLibrary {
    let dir: URL
    let library: BookLibrary
    static let today = BookDate(year: 2025, month: 2, day: 3)!

    init(_ name: String = "lib") throws {
        dir = try makeTempDirectory(name)
        library = try BookLibrary(path: dir.appendingPathComponent("bts/library.sqlite"), today: { TempLibrary.today })
    }

    func reopen() throws -> BookLibrary {
        try BookLibrary(path: library.path, today: { TempLibrary.today })
    }

    func cleanup() { try? FileManager.default.removeItem(at: dir) }
}

enum Fixture {
    static func data(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Data(contentsOf: url)
    }
}

/// A valid ISBN-13: `978` + `digit` + `n` (8 digits) + check digit.
func syntheticISBN(_ digit: Int, _ n: Int) -> String {
    makeISBN13("978\(digit)" + String(format: "%08d", n))
}

/// What a round trip must keep of a book, comparable across libraries.
struct Essentials: Hashable, CustomStringConvertible {
    var key: String
    var title: String
    var authors: [String]
    var shelf: String
    var tags: [String]
    var rating: Double?
    var dateRead: String?
    var dateAdded: String?
    var review: String?
    var notes: String?
    var readCount: Int?

    init(_ b: LibraryBook, roundRating: Bool = false) {
        key = b.key
        title = b.title
        authors = b.authors
        shelf = b.reading.shelf.rawValue
        tags = b.reading.tags
        rating = roundRating ? b.reading.rating.map { $0.rounded(.toNearestOrAwayFromZero) } : b.reading.rating
        dateRead = b.reading.dateRead?.iso
        dateAdded = b.reading.dateAdded?.iso
        review = b.reading.review
        notes = b.reading.privateNotes
        readCount = b.reading.readCount
    }

    var description: String { "\(key) \(shelf) \(tags) \(rating ?? 0) \(dateRead ?? "-") \(dateAdded ?? "-")" }
}
