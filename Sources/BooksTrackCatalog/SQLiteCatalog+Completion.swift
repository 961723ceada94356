import BooksTrackSupport
import Foundation
import GRDB

extension SQLiteCatalog {
    /// The most matching books one completion reads (the most rated first).
    package static let completionScanLimit = 200
    /// The most authors or titles one TAB takes from the catalog.
    package static let completionLimit = 30

    /// Author names with a word starting with each typed word (`tolk` → "J.R.R. Tolkien"), the most
    /// rated first (ratings summed over their books), at most `limit`. One prefix query of the
    /// full-text index, reading at most ``completionScanLimit`` books; empty on any error.
    package func authorCompletions(_ typed: String, limit: Int) -> [String] {
        guard limit > 0, let rows = completionRows(typed, columns: Self.authorColumns, field: "authors") else {
            return []
        }
        return CompletionRanking.authors(rows, typed: typed, limit: limit)
    }

    /// Titles with a word starting with each typed word, the most rated first, at most `limit`
    /// (one prefix query of the full-text index; empty on any error).
    package func titleCompletions(_ typed: String, limit: Int) -> [String] {
        guard limit > 0, let rows = completionRows(typed, columns: Self.titleColumns, field: "title") else { return [] }
        return CompletionRanking.titles(rows, limit: limit)
    }

    /// `field` and the ratings count of the books matching `typed` in `columns`, most rated first.
    private func completionRows(_ typed: String, columns: [String], field: String) -> [(text: String, count: Int)]? {
        guard let expression = FTSQuery.expression(typed, columns: columns) else { return nil }
        return try? database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT books.\(field) AS text, books.ratings_count AS count FROM books_fts
                    JOIN books ON books.id = books_fts.rowid
                    WHERE books_fts MATCH ? ORDER BY books.ratings_count DESC, books.id LIMIT ?
                    """,
                arguments: [expression, Self.completionScanLimit]
            ).map { (text: $0["text"] as String, count: $0["count"] as Int) }
        }
    }
}
