import GRDB

extension BookLibrary {
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
                    books += try Self.hydrate(db, ids: chunk)
                } catch is RowDecodingError {
                    // Book by book, to keep every one that reads.
                    for id in chunk {
                        do {
                            books += try Self.hydrate(db, ids: [id])
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
