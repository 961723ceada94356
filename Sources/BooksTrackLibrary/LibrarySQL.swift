import BooksTrackSupport
import Foundation
import GRDB

/// The SQL of a listing, built from a `LibraryFilter` and a `LibrarySort` without touching the
/// database: which editions match and in what order.
package enum LibrarySQL {
    /// FTS5 columns of `library_fts` and their bm25 weights.
    package static let ftsColumns = ["title", "authors", "series", "notes", "tags"]
    package static let bm25 = "bm25(library_fts, 10.0, 6.0, 4.0, 1.0, 2.0)"

    /// A statement and its arguments.
    package struct Query: Hashable, Sendable {
        package var sql: String
        package var arguments: [DatabaseValue]
    }

    /// `SELECT e.id ...` for the filter (nil when the text has no searchable words).
    package static func select(_ filter: LibraryFilter, sort: LibrarySort = .newestFirst) -> Query? {
        var joins = "FROM edition e JOIN reading r ON r.editionId = e.id JOIN work w ON w.id = e.workId"
        var conditions: [String] = []
        var args: [DatabaseValue] = []
        var hasText = false
        if let text = filter.text {
            guard let expr = FTSQuery.expression(text, columns: ftsColumns) else { return nil }
            joins += " JOIN library_fts ON library_fts.rowid = e.id"
            conditions.append("library_fts MATCH ?")
            args.append(expr.databaseValue)
            hasText = true
        }
        if let shelf = filter.shelf {
            conditions.append("r.shelf = ?")
            args.append(shelf.rawValue.databaseValue)
        }
        if let author = filter.author {
            conditions.append(
                """
                e.workId IN (SELECT wa.workId FROM work_author wa JOIN author a ON a.id = wa.authorId
                    WHERE instr(a.key, ?) > 0)
                """
            )
            args.append(TextKey.author(author).databaseValue)
        }
        switch filter.rating {
        case .atLeast(let r)?:
            conditions.append("r.rating >= ?")
            args.append(r.databaseValue)
        case .exactly(let r)?:
            conditions.append("r.rating = ?")
            args.append(r.databaseValue)
        case .unrated?:
            conditions.append("r.rating IS NULL")
        case nil: break
        }
        if let year = filter.yearRead {
            conditions.append("r.dateRead >= ? AND r.dateRead < ?")
            args.append(String(format: "%04d", year).databaseValue)
            args.append(String(format: "%04d", year + 1).databaseValue)
        }
        if let tag = filter.tag {
            conditions.append("EXISTS (SELECT 1 FROM reading_tag t WHERE t.editionId = e.id AND t.tag = ?)")
            args.append(Shelf(rawValue: tag).rawValue.databaseValue)
        }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return Query(
            sql: "SELECT e.id \(joins)\(whereClause) ORDER BY \(order(sort, hasText: hasText))",
            arguments: args
        )
    }

    /// The ORDER BY terms of `sort` (relevance is date added when there is no text).
    static func order(_ sort: LibrarySort, hasText: Bool) -> String {
        let dir = sort.descending ? "DESC" : "ASC"
        switch sort.key {
        case .relevance where hasText: return "\(bm25), e.id"
        case .relevance, .dateAdded: return "r.dateAdded \(dir), e.id \(dir)"
        case .dateRead: return "r.dateRead IS NULL, r.dateRead \(dir), e.id"
        case .title: return "e.title COLLATE NOCASE \(dir), e.id"
        case .author:
            return """
                (SELECT a.name FROM work_author wa JOIN author a ON a.id = wa.authorId
                    WHERE wa.workId = e.workId ORDER BY wa.position LIMIT 1) IS NULL,
                (SELECT a.name FROM work_author wa JOIN author a ON a.id = wa.authorId
                    WHERE wa.workId = e.workId ORDER BY wa.position LIMIT 1) COLLATE NOCASE \(dir), e.title COLLATE NOCASE, e.id
                """
        case .rating: return "r.rating IS NULL, r.rating \(dir), e.title COLLATE NOCASE, e.id"
        case .year:
            return
                "COALESCE(w.originalYear, e.publishedYear) IS NULL, COALESCE(w.originalYear, e.publishedYear) \(dir), e.id"
        }
    }

    /// Whether the index alone answers: text is the whole filter and the order is best match first.
    package static func isTextOnly(_ filter: LibraryFilter, sort: LibrarySort) -> Bool {
        guard let text = filter.text else { return false }
        return sort.key == .relevance && filter == LibraryFilter(text: text)
    }

    /// A LIKE pattern for names starting with `prefix` (`\`, `%` and `_` escaped with `\`).
    package static func likePrefix(_ prefix: String) -> String {
        prefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
    }
}
