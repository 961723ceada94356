import GRDB

extension LibraryReader {
    /// Whole books for `ids`, in the order of `ids` (missing ids are left out).
    static func books(_ db: Database, ids: [Int64]) throws -> [LibraryBook] {
        guard !ids.isEmpty else { return [] }
        var out: [LibraryBook] = []
        out.reserveCapacity(ids.count)
        for start in stride(from: 0, to: ids.count, by: 500) {
            out += try booksChunk(db, ids: Array(ids[start..<min(start + 500, ids.count)]))
        }
        return out
    }

    private static func booksChunk(_ db: Database, ids: [Int64]) throws -> [LibraryBook] {
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

    /// Books matching `filter` in `sort` order, leaving out (and counting) those a damaged file
    /// cannot give back whole: a value of the wrong type in any of a book's rows.
    func readableBooks(
        _ filter: LibraryFilter,
        sort: LibrarySort
    ) async throws(LibraryError)
        -> (books: [LibraryBook], unreadable: Int)
    {
        try await read { db in
            let ids = try Self.matchingIDs(db, filter, sort: sort, limit: nil, offset: 0)
            var books: [LibraryBook] = []
            var unreadable = 0
            for start in stride(from: 0, to: ids.count, by: 500) {
                let chunk = Array(ids[start..<min(start + 500, ids.count)])
                do {
                    books += try Self.books(db, ids: chunk)
                } catch is RowDecodingError {
                    // Book by book, to keep every one that reads.
                    for id in chunk {
                        do {
                            books += try Self.books(db, ids: [id])
                        } catch is RowDecodingError {
                            unreadable += 1
                        }
                    }
                }
            }
            return (books, unreadable)
        }
    }
}
