import Foundation

/// The columns of an import CSV that BooksTrack understands: the one statement of them, read by
/// the server's import parser and by the client's preflight (so a file the server would refuse is
/// refused before a job starts). Headers are matched case-insensitively, trimmed. To accept a new
/// spelling (another exporter's header), add it to ``spellings``.
package enum CSVImportColumn: String, CaseIterable, Sendable {
    case title, author, authors, isbn13, isbn, isbnUID, goodreadsBookID, myRating, exclusiveShelf, dateRead, publisher,
        yearPublished, numberOfPages

    /// The header spellings recognised for each column (lower-cased, trimmed).
    package static let spellings: [String: CSVImportColumn] = [
        "title": .title, "book title": .title,
        "author": .author, "author name": .author,
        // StoryGraph: several authors separated by commas (the first is matched).
        "authors": .authors,
        "isbn13": .isbn13, "isbn-13": .isbn13,
        "isbn": .isbn, "isbn10": .isbn, "isbn-10": .isbn,
        // StoryGraph: an ISBN, or an Amazon ASIN (not an ISBN: such a row is matched by title and author).
        "isbn/uid": .isbnUID,
        "book id": .goodreadsBookID, "goodreads book id": .goodreadsBookID,
        "my rating": .myRating,
        "exclusive shelf": .exclusiveShelf,
        "date read": .dateRead,
        "publisher": .publisher,
        "year published": .yearPublished,
        "number of pages": .numberOfPages,
    ]

    /// A file must have at least one of these (a book is found by its ISBN or its title).
    package static let identifying: Set<CSVImportColumn> = [.title, .isbn, .isbn13, .isbnUID]

    /// The identifying headers as a sentence names them.
    package static let identifyingHeaders = "Title, Book Title, ISBN, ISBN13 or ISBN/UID"

    /// The column a header names, if any.
    package static func recognise(_ header: String) -> CSVImportColumn? {
        spellings[header.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()]
    }
}
