import Foundation
import GRDB

/// The SQL behind saves and edits; every function runs inside the caller's transaction.
enum LibraryStore {
    enum Outcome { case created, updated, unchanged, skipped }

    /// What to do with the user's fields of an incoming book.
    enum ReadingInput {
        /// Data-only save: a new book gets `shelf` and today's date; a stored one keeps its fields.
        case none(shelf: Shelf)
        /// A save that names the shelf: a new book gets `shelf` and today's date; a stored one is
        /// moved to `shelf` (its other fields kept).
        case shelve(Shelf)
        /// An import row: a new book gets these fields, a stored one has them laid over its own.
        case carry(ReadingFields)
    }

    static let separator = "\u{1F}"

    /// Saves one book: finds it (ISBN-13, else title + first author; a stored book without ISBN
    /// is given the incoming ISBN), creates it when missing and `create`, merges otherwise; records
    /// `provenance` and `sources`.
    static func upsert(
        _ db: Database,
        data: BookData,
        reading: ReadingInput,
        policy: MergePolicy,
        create: Bool,
        provenance: Provenance,
        sources: [Provenance] = [],
        today: BookDate
    ) throws -> Outcome {
        guard !data.title.isEmpty else { return .skipped }
        var existing: Int64?
        var adoptISBN = false
        if let isbn13 = data.isbn13 {
            existing = try Int64.fetchOne(db, sql: "SELECT id FROM edition WHERE isbn13 = ?", arguments: [isbn13])
            if existing == nil {
                var noISBN = data
                noISBN.isbn13 = nil
                existing = try Int64.fetchOne(
                    db,
                    sql: "SELECT id FROM edition WHERE key = ? AND isbn13 IS NULL",
                    arguments: [noISBN.key]
                )
                adoptISBN = existing != nil
            }
        } else {
            existing = try Int64.fetchOne(db, sql: "SELECT id FROM edition WHERE key = ?", arguments: [data.key])
            if existing == nil {
                // A book without ISBN is the work's only edition when the work has one (a StoryGraph
                // row gave a Goodreads row's book its ISBN: importing the Goodreads file again must not
                // add it twice).
                let editions = try Int64.fetchAll(
                    db,
                    sql: "SELECT e.id FROM edition e JOIN work w ON w.id = e.workId WHERE w.key = ? LIMIT 2",
                    arguments: [data.workKey]
                )
                if editions.count == 1 { existing = editions[0] }
            }
        }

        guard let id = existing else {
            guard create else { return .skipped }
            let workID = try findOrCreateWork(db, data: data)
            let id = try insertEdition(db, workID: workID, data: data)
            var fields: ReadingFields
            switch reading {
            case .none(let shelf), .shelve(let shelf): fields = ReadingFields(shelf: shelf)
            case .carry(let row): fields = row
            }
            if fields.dateAdded == nil { fields.dateAdded = today }
            try writeReading(db, editionID: id, fields: fields, insert: true)
            for source in [provenance] + sources { try addProvenance(db, editionID: id, source) }
            try reindex(db, editionID: id)
            return .created
        }

        var changed = false
        let (stored, workID) = try loadData(db, editionID: id)
        var merged = stored.merged(with: data, policy: policy)
        if adoptISBN {
            merged.isbn13 = data.isbn13
            merged.isbn10 = data.isbn10 ?? merged.isbn10
        }
        if merged != stored {
            try updateEdition(db, id: id, workID: workID, data: merged, stored: stored)
            changed = true
        }
        let before = try loadReading(db, editionID: id)
        var after = before
        switch reading {
        case .none: break
        case .shelve(let shelf): after.shelf = shelf
        case .carry(let row): after = before.carrying(row)
        }
        if after != before {
            try writeReading(db, editionID: id, fields: after, insert: false)
            changed = true
        }
        for source in [provenance] + sources { try addProvenance(db, editionID: id, source) }
        if changed { try reindexWork(db, workID: workID) }
        return changed ? .updated : .unchanged
    }

    // MARK: - Works and authors

    static func findOrCreateWork(_ db: Database, data: BookData) throws -> Int64 {
        let key = data.workKey
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM work WHERE key = ?", arguments: [key]) {
            try fillWork(db, id: id, data: data, policy: .fillGaps)
            if try Int.fetchOne(db, sql: "SELECT count(*) FROM work_author WHERE workId = ?", arguments: [id]) == 0 {
                try setAuthors(db, workID: id, names: data.authors)
            }
            return id
        }
        try db.run(
            sql: """
                INSERT INTO work (key, title, series, seriesNumber, originalYear, description, subjects)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                key, data.title, data.series, data.seriesNumber, data.originalYear, data.description,
                data.subjects.joined(separator: separator),
            ]
        )
        let id = db.lastInsertedRowID
        try setAuthors(db, workID: id, names: data.authors)
        return id
    }

    static func fillWork(_ db: Database, id: Int64, data: BookData, policy: MergePolicy) throws {
        let refresh = policy == .refresh
        try db.run(
            sql: """
                UPDATE work SET
                    series = COALESCE(series, ?), seriesNumber = COALESCE(seriesNumber, ?),
                    originalYear = COALESCE(originalYear, ?),
                    description = CASE WHEN ? AND ? IS NOT NULL THEN ? ELSE COALESCE(description, ?) END,
                    subjects = CASE WHEN (? OR subjects = '') AND ? <> '' THEN ? ELSE subjects END
                WHERE id = ?
                """,
            arguments: [
                data.series, data.seriesNumber, data.originalYear,
                refresh, data.description, data.description, data.description,
                refresh, data.subjects.joined(separator: separator), data.subjects.joined(separator: separator), id,
            ]
        )
    }

    static func setAuthors(_ db: Database, workID: Int64, names: [String]) throws {
        try db.run(sql: "DELETE FROM work_author WHERE workId = ?", arguments: [workID])
        var position = 0
        for name in names {
            let key = TextKey.author(name)
            guard !key.isEmpty else { continue }
            try db.run(sql: "INSERT OR IGNORE INTO author (key, name) VALUES (?, ?)", arguments: [key, name])
            guard let authorID = try Int64.fetchOne(db, sql: "SELECT id FROM author WHERE key = ?", arguments: [key])
            else { continue }
            try db.run(
                sql: "INSERT OR IGNORE INTO work_author (workId, authorId, position) VALUES (?, ?, ?)",
                arguments: [workID, authorID, position]
            )
            position += 1
        }
    }

    // MARK: - Editions

    static func editionArguments(_ data: BookData) -> [(any DatabaseValueConvertible)?] {
        [
            data.key, data.isbn13, data.isbn10, data.asin, data.goodreadsBookID, data.title, data.publisher,
            data.publishedDate, data.publishedYear, data.pageCount, data.format, data.language, data.coverURL,
            data.averageRating,
        ]
    }

    static func insertEdition(_ db: Database, workID: Int64, data: BookData) throws -> Int64 {
        try db.run(
            sql: """
                INSERT INTO edition (workId, key, isbn13, isbn10, asin, goodreadsBookId, title, publisher, publishedDate,
                    publishedYear, pageCount, format, language, coverUrl, averageRating)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: StatementArguments([workID as (any DatabaseValueConvertible)?] + editionArguments(data))
        )
        return db.lastInsertedRowID
    }

    static func updateEdition(_ db: Database, id: Int64, workID: Int64, data: BookData, stored: BookData) throws {
        try db.run(
            sql: """
                UPDATE edition SET key = ?, isbn13 = ?, isbn10 = ?, asin = ?, goodreadsBookId = ?, title = ?,
                    publisher = ?, publishedDate = ?, publishedYear = ?, pageCount = ?, format = ?, language = ?,
                    coverUrl = ?, averageRating = ?
                WHERE id = ?
                """,
            arguments: StatementArguments(editionArguments(data) + [id])
        )
        try db.run(
            sql: """
                UPDATE work SET series = ?, seriesNumber = ?, originalYear = ?, description = ?, subjects = ?
                WHERE id = ?
                """,
            arguments: [
                data.series, data.seriesNumber, data.originalYear, data.description,
                data.subjects.joined(separator: separator), workID,
            ]
        )
        if stored.authors.isEmpty, !data.authors.isEmpty {
            try setAuthors(db, workID: workID, names: data.authors)
        }
    }

    /// The columns every book query selects, in the order `bookData` and `readingFields` read them.
    static let bookColumns = """
        e.id, e.workId, e.key, e.isbn13, e.isbn10, e.asin, e.goodreadsBookId, e.title, e.publisher, e.publishedDate,
        e.publishedYear, e.pageCount, e.format, e.language, e.coverUrl, e.averageRating,
        w.series, w.seriesNumber, w.originalYear, w.description, w.subjects,
        r.shelf, r.rating, r.dateRead, r.dateAdded, r.readCount, r.review, r.privateNotes, r.ownedCopies
        """
    static let bookTables = "edition e JOIN work w ON w.id = e.workId JOIN reading r ON r.editionId = e.id"

    static func bookRow(_ db: Database, editionID: Int64) throws -> Row {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(bookColumns) FROM \(bookTables) WHERE e.id = ?"),
                arguments: [editionID]
            )
        else { throw LibraryError.notFound("#\(editionID)") }
        return row
    }

    /// The stored data of an edition (with its work's fields and authors) and its work id.
    static func loadData(_ db: Database, editionID: Int64) throws -> (BookData, Int64) {
        let row = try bookRow(db, editionID: editionID)
        let workID: Int64 = try row.decode(atIndex: 1)
        let authors = try authorNames(db, workIDs: [workID])
        return (try bookData(row, authors: authors[workID] ?? []), workID)
    }

    /// Reads columns 3…20 of `bookColumns` (by position: name lookups are slow). A value of the
    /// wrong type (a BLOB in a TEXT column) throws `RowDecodingError`: the file is damaged.
    static func bookData(_ row: Row, authors: [String]) throws -> BookData {
        var d = BookData(title: try row.decode(atIndex: 7), authors: authors)
        d.isbn13 = try row.decode(atIndex: 3)
        d.isbn10 = try row.decode(atIndex: 4)
        d.asin = try row.decode(atIndex: 5)
        d.goodreadsBookID = try row.decode(atIndex: 6)
        d.publisher = try row.decode(atIndex: 8)
        d.publishedDate = try row.decode(atIndex: 9)
        d.publishedYear = try row.decode(atIndex: 10)
        d.pageCount = try row.decode(atIndex: 11)
        d.format = try row.decode(atIndex: 12)
        d.language = try row.decode(atIndex: 13)
        d.coverURL = try row.decode(atIndex: 14)
        d.averageRating = try row.decode(atIndex: 15)
        d.series = try row.decode(atIndex: 16)
        d.seriesNumber = try row.decode(atIndex: 17)
        d.originalYear = try row.decode(atIndex: 18)
        d.description = try row.decode(atIndex: 19)
        let subjects = try row.decode(String?.self, atIndex: 20) ?? ""
        d.subjects = subjects.isEmpty ? [] : subjects.components(separatedBy: separator)
        return d
    }

    static func authorNames(_ db: Database, workIDs: [Int64]) throws -> [Int64: [String]] {
        guard !workIDs.isEmpty else { return [:] }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT wa.workId, a.name FROM work_author wa JOIN author a ON a.id = wa.authorId
                WHERE wa.workId IN (\(databaseQuestionMarks(count: workIDs.count))) ORDER BY wa.workId, wa.position
                """,
            arguments: StatementArguments(workIDs)
        )
        return try grouped(rows)
    }

    /// Rows of (id, text) as the texts of each id, in row order.
    static func grouped(_ rows: RowCursor) throws -> [Int64: [String]] {
        var out: [Int64: [String]] = [:]
        while let row = try rows.next() {
            let id: Int64 = try row.decode(atIndex: 0)
            out[id, default: []].append(try row.decode(atIndex: 1))
        }
        return out
    }

    // MARK: - Reading fields

    /// Reads columns 21…28 of `bookColumns` (throws like `bookData`).
    static func readingFields(_ row: Row, tags: [String]) throws -> ReadingFields {
        var r = ReadingFields(shelf: Shelf(rawValue: try row.decode(atIndex: 21)))
        r.tags = tags
        r.rating = try row.decode(atIndex: 22)
        r.dateRead = (try row.decode(String?.self, atIndex: 23)).flatMap(BookDate.init(parsing:))
        r.dateAdded = (try row.decode(String?.self, atIndex: 24)).flatMap(BookDate.init(parsing:))
        r.readCount = try row.decode(atIndex: 25)
        r.review = try row.decode(atIndex: 26)
        r.privateNotes = try row.decode(atIndex: 27)
        r.ownedCopies = try row.decode(atIndex: 28)
        return r
    }

    static func loadReading(_ db: Database, editionID: Int64) throws -> ReadingFields {
        let row = try bookRow(db, editionID: editionID)
        return try readingFields(row, tags: try tags(db, editionIDs: [editionID])[editionID] ?? [])
    }

    static func tags(_ db: Database, editionIDs: [Int64]) throws -> [Int64: [String]] {
        guard !editionIDs.isEmpty else { return [:] }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT editionId, tag FROM reading_tag WHERE editionId IN (\(databaseQuestionMarks(count: editionIDs.count)))
                ORDER BY editionId, position
                """,
            arguments: StatementArguments(editionIDs)
        )
        return try grouped(rows)
    }

    static func writeReading(_ db: Database, editionID: Int64, fields: ReadingFields, insert: Bool) throws {
        let values: [(any DatabaseValueConvertible)?] = [
            fields.shelf.rawValue, fields.rating, fields.dateRead?.iso, fields.dateAdded?.iso, fields.readCount,
            fields.review, fields.privateNotes, fields.ownedCopies,
        ]
        if insert {
            try db.run(
                sql: """
                    INSERT INTO reading (shelf, rating, dateRead, dateAdded, readCount, review, privateNotes, ownedCopies,
                        editionId) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: StatementArguments(values + [editionID])
            )
        } else {
            try db.run(
                sql: """
                    UPDATE reading SET shelf = ?, rating = ?, dateRead = ?, dateAdded = COALESCE(?, dateAdded),
                        readCount = ?, review = ?, privateNotes = ?, ownedCopies = ? WHERE editionId = ?
                    """,
                arguments: StatementArguments(values + [editionID])
            )
        }
        try db.run(sql: "DELETE FROM reading_tag WHERE editionId = ?", arguments: [editionID])
        for (i, tag) in fields.tags.enumerated() {
            try db.run(
                sql: "INSERT OR IGNORE INTO reading_tag (editionId, tag, position) VALUES (?, ?, ?)",
                arguments: [editionID, tag, i]
            )
        }
    }

    static func addProvenance(_ db: Database, editionID: Int64, _ p: Provenance) throws {
        try db.run(
            sql: """
                INSERT OR IGNORE INTO provenance (editionId, source, detail, firstSeen)
                VALUES (?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                """,
            arguments: [editionID, p.source.rawValue, p.detail]
        )
    }

    // MARK: - Full-text index

    /// Rewrites the FTS row of every edition of a work (authors and series are the work's).
    static func reindexWork(_ db: Database, workID: Int64) throws {
        for id in try Int64.fetchAll(db, sql: "SELECT id FROM edition WHERE workId = ?", arguments: [workID]) {
            try reindex(db, editionID: id)
        }
    }

    static func reindex(_ db: Database, editionID: Int64) throws {
        try db.run(sql: "DELETE FROM library_fts WHERE rowid = ?", arguments: [editionID])
        try db.run(
            sql: """
                INSERT INTO library_fts (rowid, title, authors, series, notes, tags)
                SELECT e.id, e.title,
                    (SELECT group_concat(a.name, ', ') FROM work_author wa JOIN author a ON a.id = wa.authorId
                        WHERE wa.workId = e.workId),
                    w.series,
                    trim(COALESCE(r.review, '') || ' ' || COALESCE(r.privateNotes, '')),
                    (SELECT group_concat(t.tag, ' ') FROM reading_tag t WHERE t.editionId = e.id)
                FROM edition e JOIN work w ON w.id = e.workId JOIN reading r ON r.editionId = e.id
                WHERE e.id = ?
                """,
            arguments: [editionID]
        )
    }
}

extension Database {
    /// `execute(sql:arguments:)` through the connection's statement cache (saves run the same
    /// statements once per book).
    func run(sql: String, arguments: StatementArguments = []) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
