import BooksTrackContract
import BooksTrackSupport
import Foundation
import GRDB

/// The query side of a `BookLibrary`: listings, full-text search, lookups by reference, shelves,
/// tags, completion handles and stats, each one read on the library's read pool. `BookLibrary`
/// forwards its reading methods here; the SQL comes from `LibrarySQL`.
package struct LibraryReader: Sendable {
    let pool: DatabasePool
    /// The database file, for error messages.
    let path: String

    /// Runs a read, mapping errors.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(LibraryError) -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw LibraryError.wrap(error, path: path)
        }
    }

    /// Books matching `filter`, ordered by `sort`, at most `limit` (all when nil) after `offset`.
    package func list(
        _ filter: LibraryFilter = LibraryFilter(),
        sort: LibrarySort = .newestFirst,
        limit: Int? = nil,
        offset: Int = 0
    ) async throws(LibraryError) -> [LibraryBook] {
        try await read { db in
            let ids = try Self.matchingIDs(db, filter, sort: sort, limit: limit, offset: offset)
            return try Self.books(db, ids: ids)
        }
    }

    /// How many books match `filter`.
    package func count(_ filter: LibraryFilter = LibraryFilter()) async throws(LibraryError) -> Int {
        try await read { db in
            guard let query = LibrarySQL.select(filter) else { return 0 }
            return try Int.fetchOne(
                db,
                sql: "SELECT count(*) FROM (\(query.sql))",
                arguments: StatementArguments(query.arguments)
            ) ?? 0
        }
    }

    /// Offline full-text search, best match first (see `LibraryFilter.text`).
    package func search(
        _ text: String,
        filter: LibraryFilter = LibraryFilter(),
        limit: Int = 50
    ) async throws(LibraryError)
        -> [LibraryBook]
    {
        var f = filter
        f.text = text
        return try await list(f, sort: .relevance, limit: limit)
    }

    /// One book by library id.
    package func book(id: Int64) async throws(LibraryError) -> LibraryBook? {
        try await read { db in try Self.books(db, ids: [id]).first }
    }

    /// Finds a book by ISBN (10 or 13, hyphens allowed), `#id`, ASIN, or title words.
    package func find(_ reference: String) async throws(LibraryError) -> BookMatch {
        let ref = reference.trimmingCharacters(in: .whitespaces)
        guard !ref.isEmpty else { return .none }
        return try await read { db in
            if let isbn = ISBN(ref) {
                let ids = try Int64.fetchAll(
                    db,
                    sql: "SELECT id FROM edition WHERE isbn13 = ?",
                    arguments: [isbn.isbn13]
                )
                return BookMatch(try Self.books(db, ids: ids))
            }
            if ref.hasPrefix("#"), let id = Int64(ref.dropFirst()) {
                return BookMatch(try Self.books(db, ids: [id]))
            }
            if let asin = BookData.normalizedASIN(ref) {
                let ids = try Int64.fetchAll(db, sql: "SELECT id FROM edition WHERE asin = ?", arguments: [asin])
                if !ids.isEmpty { return BookMatch(try Self.books(db, ids: ids)) }
            }
            guard let expr = FTSQuery.expression(ref, columns: ["title", "authors", "series"]) else { return .none }
            let ids = try Int64.fetchAll(
                db,
                sql: "SELECT rowid FROM library_fts WHERE library_fts MATCH ? ORDER BY \(LibrarySQL.bm25) LIMIT 11",
                arguments: [expr]
            )
            return BookMatch(try Self.books(db, ids: ids), title: ref)
        }
    }

    /// The subset of `isbns` (as given) whose book is in the library (ISBN-10 and -13 agree).
    package func holdings(of isbns: [String]) async throws(LibraryError) -> Set<String> {
        var byISBN13: [String: [String]] = [:]
        for raw in isbns { if let isbn = ISBN(raw) { byISBN13[isbn.isbn13, default: []].append(raw) } }
        guard !byISBN13.isEmpty else { return [] }
        let keys = Array(byISBN13.keys)
        let held = try await read { db in
            var found: [String] = []
            for chunk in stride(from: 0, to: keys.count, by: 500).map({ Array(keys[$0..<min($0 + 500, keys.count)]) }) {
                found += try String.fetchAll(
                    db,
                    sql: "SELECT isbn13 FROM edition WHERE isbn13 IN (\(databaseQuestionMarks(count: chunk.count)))",
                    arguments: StatementArguments(chunk)
                )
            }
            return found
        }
        return Set(held.flatMap { byISBN13[$0] ?? [] })
    }

    /// Every shelf in use with its count, plus the standard ones (count 0), in shelf order.
    package func shelves() async throws(LibraryError) -> [(shelf: Shelf, count: Int)] {
        let rows = try await read { db in
            try Row.fetchAll(db, sql: "SELECT shelf, count(*) AS n FROM reading GROUP BY shelf").map {
                (Shelf(rawValue: try $0.decode(forColumn: "shelf")), try $0.decode(Int.self, forColumn: "n"))
            }
        }
        var counts: [Shelf: Int] = [:]
        for (s, n) in rows { counts[s] = n }
        for s in Shelf.standard where counts[s] == nil { counts[s] = 0 }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Every tag in use with its count, most used first.
    package func tags() async throws(LibraryError) -> [(tag: String, count: Int)] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT tag, count(*) AS n FROM reading_tag GROUP BY tag ORDER BY n DESC, tag")
                .map { (try $0.decode(String.self, forColumn: "tag"), try $0.decode(Int.self, forColumn: "n")) }
        }
    }

    /// Handles for completion: books whose title (or ISBN) starts with `prefix`, at most `limit`.
    package func handles(prefix: String, limit: Int = 50) async throws(LibraryError) -> [BookHandle] {
        try await read { db in
            let like = LibrarySQL.likePrefix(prefix)
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT id, isbn13, title FROM edition WHERE title LIKE ? ESCAPE '\\' OR isbn13 LIKE ? ESCAPE '\\'
                    ORDER BY title COLLATE NOCASE LIMIT ?
                    """,
                arguments: [like, like, limit]
            ).map {
                BookHandle(
                    id: try $0.decode(forColumn: "id"),
                    isbn13: try $0.decode(forColumn: "isbn13"),
                    title: try $0.decode(forColumn: "title")
                )
            }
        }
    }

    /// The ids of the books matching `filter` in `sort` order, at most `limit` after `offset`.
    static func matchingIDs(
        _ db: Database,
        _ filter: LibraryFilter,
        sort: LibrarySort,
        limit: Int?,
        offset: Int
    ) throws
        -> [Int64]
    {
        if LibrarySQL.isTextOnly(filter, sort: sort) {
            // Text alone: the index answers by itself (rank = the weighted bm25 set in the schema).
            guard let text = filter.text, let expr = FTSQuery.expression(text, columns: LibrarySQL.ftsColumns)
            else { return [] }
            return try Int64.fetchAll(
                db,
                sql: "SELECT rowid FROM library_fts WHERE library_fts MATCH ? ORDER BY rank LIMIT ? OFFSET ?",
                arguments: [expr, limit ?? -1, max(0, offset)]
            )
        }
        guard let query = LibrarySQL.select(filter, sort: sort) else { return [] }
        var args = StatementArguments(query.arguments)
        args += [limit ?? -1, max(0, offset)]
        return try Int64.fetchAll(db, sql: query.sql + " LIMIT ? OFFSET ?", arguments: args)
    }
}
