import Foundation
import GRDB

extension SQLiteCatalog {
    /// Shelves shown with a book (`CatalogBook.shelves`, the `search isbn` JSON's `subjectTags`).
    package static let shownShelves = 8

    /// The shelf vectors (loaded once, on first use of `similar` or personal recommendations).
    var shelfVectors: ShelfVectors {
        get throws {
            try loadedShelfVectors.get {
                let ids = try books.all.map(\.id)
                return try database.read { db in try ShelfVectors.load(db, ids: ids) }
            }
        }
    }

    /// The work identity of a title with one author (`WorkIdentity.key`).
    package static func workKey(title: String, author: String?) -> String {
        WorkIdentity.key(title: title, author: author)
    }
}
