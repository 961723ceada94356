import BooksTrackContract
import BooksTrackSupport
import Foundation
import GRDB

extension BookLibrary {
    /// FTS5 columns of `library_fts` and their bm25 weights.
    static let ftsColumns = ["title", "authors", "series", "notes", "tags"]
    static let bm25 = "bm25(library_fts, 10.0, 6.0, 4.0, 1.0, 2.0)"

    /// Books matching `filter`, ordered by `sort`, at most `limit` (all when nil) after `offset`.
    package func list(
        _ filter: LibraryFilter = LibraryFilter(),
        sort: LibrarySort = .newestFirst,
        limit: Int? = nil,
        offset: Int = 0
    ) async throws(LibraryError) -> [LibraryBook] {
        try await read { db in
            let ids = try Self.matchingIDs(db, filter, sort: sort, limit: limit, offset: offset)
            return try Self.hydrate(db, ids: ids)
        }
    }

    /// How many books match `filter`.
    package func count(_ filter: LibraryFilter = LibraryFilter()) async throws(LibraryError) -> Int {
        try await read { db in
            guard let query = Self.filterQuery(filter) else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(query.sql))", arguments: query.arguments) ?? 0
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
        try await read { db in try Self.hydrate(db, ids: [id]).first }
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
                return Self.match(try Self.hydrate(db, ids: ids))
            }
            if ref.hasPrefix("#"), let id = Int64(ref.dropFirst()) {
                return Self.match(try Self.hydrate(db, ids: [id]))
            }
            if let asin = BookData.normalizedASIN(ref) {
                let ids = try Int64.fetchAll(db, sql: "SELECT id FROM edition WHERE asin = ?", arguments: [asin])
                if !ids.isEmpty { return Self.match(try Self.hydrate(db, ids: ids)) }
            }
            guard let expr = FTSQuery.expression(ref, columns: ["title", "authors", "series"]) else { return .none }
            let ids = try Int64.fetchAll(
                db,
                sql: "SELECT rowid FROM library_fts WHERE library_fts MATCH ? ORDER BY \(Self.bm25) LIMIT 11",
                arguments: [expr]
            )
            let books = try Self.hydrate(db, ids: ids)
            if books.count > 1 {
                let wanted = TextKey.title(ref)
                let exact = books.filter { TextKey.title($0.title) == wanted }
                if exact.count == 1 { return .one(exact[0]) }
            }
            return Self.match(books)
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
            let like =
                prefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_") + "%"
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

    // MARK: - SQL

    static func match(_ books: [LibraryBook]) -> BookMatch {
        switch books.count {
        case 0: return .none
        case 1: return .one(books[0])
        default: return .ambiguous(Array(books.prefix(10)))
        }
    }

    /// `SELECT e.id ...` for the filter (nil when the text has no searchable words).
    static func filterQuery(
        _ filter: LibraryFilter,
        sort: LibrarySort = .newestFirst
    ) -> (
        sql: String, arguments: StatementArguments
    )? {
        var joins = "FROM edition e JOIN reading r ON r.editionId = e.id JOIN work w ON w.id = e.workId"
        var conditions: [String] = []
        var args: [(any DatabaseValueConvertible)?] = []
        var hasText = false
        if let text = filter.text {
            guard let expr = FTSQuery.expression(text, columns: ftsColumns) else { return nil }
            joins += " JOIN library_fts ON library_fts.rowid = e.id"
            conditions.append("library_fts MATCH ?")
            args.append(expr)
            hasText = true
        }
        if let shelf = filter.shelf {
            conditions.append("r.shelf = ?")
            args.append(shelf.rawValue)
        }
        if let author = filter.author {
            conditions.append(
                """
                e.workId IN (SELECT wa.workId FROM work_author wa JOIN author a ON a.id = wa.authorId
                    WHERE instr(a.key, ?) > 0)
                """
            )
            args.append(TextKey.author(author))
        }
        switch filter.rating {
        case .atLeast(let r)?:
            conditions.append("r.rating >= ?")
            args.append(r)
        case .exactly(let r)?:
            conditions.append("r.rating = ?")
            args.append(r)
        case .unrated?:
            conditions.append("r.rating IS NULL")
        case nil: break
        }
        if let year = filter.yearRead {
            conditions.append("r.dateRead >= ? AND r.dateRead < ?")
            args.append(String(format: "%04d", year))
            args.append(String(format: "%04d", year + 1))
        }
        if let tag = filter.tag {
            conditions.append("EXISTS (SELECT 1 FROM reading_tag t WHERE t.editionId = e.id AND t.tag = ?)")
            args.append(Shelf(rawValue: tag).rawValue)
        }
        let dir = sort.descending ? "DESC" : "ASC"
        let order: String
        switch sort.key {
        case .relevance where hasText: order = "\(bm25), e.id"
        case .relevance, .dateAdded: order = "r.dateAdded \(dir), e.id \(dir)"
        case .dateRead: order = "r.dateRead IS NULL, r.dateRead \(dir), e.id"
        case .title: order = "e.title COLLATE NOCASE \(dir), e.id"
        case .author:
            order = """
                (SELECT a.name FROM work_author wa JOIN author a ON a.id = wa.authorId
                    WHERE wa.workId = e.workId ORDER BY wa.position LIMIT 1) IS NULL,
                (SELECT a.name FROM work_author wa JOIN author a ON a.id = wa.authorId
                    WHERE wa.workId = e.workId ORDER BY wa.position LIMIT 1) COLLATE NOCASE \(dir), e.title COLLATE NOCASE, e.id
                """
        case .rating: order = "r.rating IS NULL, r.rating \(dir), e.title COLLATE NOCASE, e.id"
        case .year:
            order =
                "COALESCE(w.originalYear, e.publishedYear) IS NULL, COALESCE(w.originalYear, e.publishedYear) \(dir), e.id"
        }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return ("SELECT e.id \(joins)\(whereClause) ORDER BY \(order)", StatementArguments(args))
    }

    static func matchingIDs(
        _ db: Database,
        _ filter: LibraryFilter,
        sort: LibrarySort,
        limit: Int?,
        offset: Int
    ) throws
        -> [Int64]
    {
        if let text = filter.text, sort.key == .relevance, filter == LibraryFilter(text: text) {
            // Text alone: the index answers by itself (rank = the weighted bm25 set in the schema).
            guard let expr = FTSQuery.expression(text, columns: ftsColumns) else { return [] }
            return try Int64.fetchAll(
                db,
                sql: "SELECT rowid FROM library_fts WHERE library_fts MATCH ? ORDER BY rank LIMIT ? OFFSET ?",
                arguments: [expr, limit ?? -1, max(0, offset)]
            )
        }
        guard let query = filterQuery(filter, sort: sort) else { return [] }
        var args = query.arguments
        args += [limit ?? -1, max(0, offset)]
        return try Int64.fetchAll(db, sql: query.sql + " LIMIT ? OFFSET ?", arguments: args)
    }

    /// Whole books for `ids`, in the order of `ids` (missing ids are left out).
    static func hydrate(_ db: Database, ids: [Int64]) throws -> [LibraryBook] {
        guard !ids.isEmpty else { return [] }
        var out: [LibraryBook] = []
        out.reserveCapacity(ids.count)
        for start in stride(from: 0, to: ids.count, by: 500) {
            out += try hydrateChunk(db, ids: Array(ids[start..<min(start + 500, ids.count)]))
        }
        return out
    }

    private static func hydrateChunk(_ db: Database, ids: [Int64]) throws -> [LibraryBook] {
        let marks = databaseQuestionMarks(count: ids.count)
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT \(LibraryStore.bookColumns),
                    (SELECT count(*) FROM edition e2 WHERE e2.workId = e.workId) AS editionsOfWork
                FROM \(LibraryStore.bookTables) WHERE e.id IN (\(marks))
                """,
            arguments: StatementArguments(ids)
        )
        let workIDs = Array(Set(try rows.map { try $0.decode(Int64.self, atIndex: 1) }))
        let authors = try LibraryStore.authorNames(db, workIDs: workIDs)
        let tags = try LibraryStore.tags(db, editionIDs: ids)
        var provenance: [Int64: [Provenance]] = [:]
        let prov = try Row.fetchCursor(
            db,
            sql: """
                SELECT editionId, source, detail FROM provenance WHERE editionId IN (\(marks))
                ORDER BY editionId, firstSeen, rowid
                """,
            arguments: StatementArguments(ids)
        )
        while let row = try prov.next() {
            if let source = Provenance.Source(rawValue: try row.decode(atIndex: 1)) {
                let id: Int64 = try row.decode(atIndex: 0)
                provenance[id, default: []].append(Provenance(source, try row.decode(atIndex: 2)))
            }
        }
        var byID: [Int64: LibraryBook] = [:]
        for row in rows {
            let id: Int64 = try row.decode(atIndex: 0)
            let workID: Int64 = try row.decode(atIndex: 1)
            byID[id] = LibraryBook(
                id: id,
                workID: workID,
                key: try row.decode(atIndex: 2),
                data: try LibraryStore.bookData(row, authors: authors[workID] ?? []),
                reading: try LibraryStore.readingFields(row, tags: tags[id] ?? []),
                provenance: provenance[id] ?? [],
                editionsOfWork: try row.decode(atIndex: 29)
            )
        }
        return ids.compactMap { byID[$0] }
    }
}
