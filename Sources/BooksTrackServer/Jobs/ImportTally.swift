import BooksTrackCatalog
import BooksTrackContract
import Foundation

/// The outcome of one CSV row.
enum ImportRowOutcome: Sendable, Hashable {
    case matched(CSVImportRow, CatalogBook, by: ImportMatchKind)
    case failed(row: Int, isbn: String, error: String)

    /// Matches `row` against the catalog (ISBN13, then ISBN, then title + author: `CatalogMatcher`).
    static func evaluate(_ row: CSVImportRow, catalog: any CatalogQuerying) -> ImportRowOutcome {
        let isbns = [row.isbn13, row.isbn].compactMap { $0 }
        if let problem = row.problem { return .failed(row: row.row, isbn: isbns.first ?? "", error: problem) }
        switch CatalogMatcher.match(isbns: isbns, title: row.title, author: row.author, catalog: catalog) {
        case .matched(let book, let kind): return .matched(row, book, by: kind)
        case .unmatched(let reason): return .failed(row: row.row, isbn: isbns.first ?? "", error: reason)
        }
    }
}

/// Running totals of an import; `results` is the `/results` body (also partial, on cancel).
///
/// Counting: every data row ends up in exactly one of `booksCreated` (first row of a catalog book),
/// `duplicatesSkipped` (a later row of the same book) or `errors` (unmatched or invalid). Every row
/// matched by something other than its ISBN, a duplicate too, is also in `matches`.
/// `enrichmentSucceeded` = `booksCreated` (every created book carries catalog data),
/// `enrichmentFailed` = `errors.count`, `booksUpdated` = 0 (each import starts from an empty library).
struct ImportTally: Sendable {
    private(set) var books: [Book] = []
    private(set) var errors: [ImportRowError] = []
    private(set) var matches: [ImportMatch] = []
    private(set) var duplicatesSkipped = 0
    private var seen: Set<Int> = []

    /// Adds one row; returns whether it succeeded (created or duplicate).
    @discardableResult
    mutating func add(_ outcome: ImportRowOutcome) -> Bool {
        switch outcome {
        case .matched(let row, let book, let kind):
            if seen.insert(book.id).inserted {
                books.append(Self.wireBook(book, row: row))
            } else {
                duplicatesSkipped += 1
            }
            if kind != .isbn {
                matches.append(
                    ImportMatch(
                        row: row.row,
                        csvTitle: row.title ?? "",
                        matchedTitle: book.title,
                        matchedAuthors: book.authors,
                        isbn: book.isbn13 ?? book.isbn10,
                        matchedBy: kind
                    )
                )
            }
            return true
        case .failed(let row, let isbn, let error):
            errors.append(ImportRowError(row: row, isbn: isbn, error: error))
            return false
        }
    }

    var results: ImportResults {
        ImportResults(
            booksCreated: books.count,
            booksUpdated: 0,
            duplicatesSkipped: duplicatesSkipped,
            enrichmentSucceeded: books.count,
            enrichmentFailed: errors.count,
            errors: errors,
            books: books,
            matches: matches
        )
    }

    /// The catalog's data, plus the row's publisher and page count when the CSV has them.
    static func wireBook(_ book: CatalogBook, row: CSVImportRow) -> Book {
        Book(
            isbn: book.isbn13 ?? book.isbn10 ?? row.isbn13 ?? row.isbn ?? "",
            isbn13: book.isbn13,
            title: book.title,
            authors: book.authors,
            publisher: row.publisher,
            publishedDate: book.year.flatMap { (1...9999).contains($0) ? String(format: "%04d", $0) : nil },
            pageCount: row.numberOfPages,
            language: book.language,
            coverUrl: book.imageURL
        )
    }
}
