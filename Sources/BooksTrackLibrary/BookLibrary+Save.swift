import BooksTrackContract
import GRDB

extension BookLibrary {
    /// Saves found books (search, similar, semantic, recommendations, enrichment): a new book goes on
    /// `shelf` (dated today); a stored one gains data (`policy` defaults to `.refresh` for
    /// enrichment, `.fillGaps` otherwise) and keeps the user's fields, except that `movingStored`
    /// moves it to `shelf` (`save --shelf`). One transaction.
    public func save(
        _ books: [BookData], from provenance: Provenance, shelf: Shelf = .toRead, movingStored: Bool = false,
        policy: MergePolicy? = nil
    ) async throws(LibraryError) -> SaveSummary {
        let policy = policy ?? (provenance.source == .enrichment ? .refresh : .fillGaps)
        let reading: LibraryStore.ReadingInput = movingStored ? .shelve(shelf) : .none(shelf: shelf)
        return try await upsertAll(books.map { book in (book, reading) }, policy: policy, create: true, provenance: provenance)
    }

    /// Updates the data of books already in the library with enrichment results (new values
    /// replace stored ones); books not in the library are counted as `skipped`, not added.
    public func refresh(_ books: [BookData], from provenance: Provenance) async throws(LibraryError) -> SaveSummary {
        try await upsertAll(books.map { book in (book, .none(shelf: .toRead)) }, policy: .refresh, create: false, provenance: provenance)
    }

    /// Imports the rows of an export file: data fills what the library lacks, the user's fields
    /// are carried in (an empty cell keeps the library's value). Importing the same file twice
    /// changes nothing the second time. One transaction.
    public func importBooks(_ rows: [ImportedBook], from provenance: Provenance) async throws(LibraryError) -> SaveSummary {
        try await upsertAll(rows.map { row in (row.data, .carry(row.reading)) }, policy: .fillGaps, create: true, provenance: provenance)
    }

    /// Saves a finished import job: every row of the uploaded file (when the caller still has it)
    /// with the server's data for its book (matched by ISBN, else title + first author; the server's
    /// ISBN is adopted by a row without one), and the server's books no row matched.
    public func importJob(_ results: ImportResults, jobID: String, rows: [ImportedBook]) async throws(LibraryError)
        -> SaveSummary
    {
        guard !rows.isEmpty else {
            // No file: the server's books are data only (a book already there keeps its shelf).
            return try await save(results.books.map(BookData.init), from: .importJob(jobID), shelf: .toRead)
        }
        return try await importBooks(Self.combine(results.books.map(BookData.init), rows: rows), from: .importJob(jobID))
    }

    /// Upserts every (data, reading) pair in one transaction and counts the outcomes.
    private func upsertAll(
        _ items: [(BookData, LibraryStore.ReadingInput)], policy: MergePolicy, create: Bool, provenance: Provenance
    ) async throws(LibraryError) -> SaveSummary {
        let today = self.today()
        return try await write { db in
            var summary = SaveSummary()
            for (data, reading) in items {
                summary.add(
                    try LibraryStore.upsert(
                        db, data: data, reading: reading, policy: policy, create: create,
                        provenance: provenance, today: today))
            }
            return summary
        }
    }

    /// The rows with the server's data merged in (matched by ISBN, else by title and first author:
    /// the server may have matched a row to another edition), then — only when there are no rows —
    /// the server's books (as to-read rows). With rows, every server book came from one of them.
    static func combine(_ server: [BookData], rows: [ImportedBook]) -> [ImportedBook] {
        var byISBN: [String: Int] = [:]
        var byTitle: [String: Int] = [:]
        for (i, book) in server.enumerated() {
            if let isbn = book.isbn13, byISBN[isbn] == nil { byISBN[isbn] = i }
            if byTitle[book.workKey] == nil { byTitle[book.workKey] = i }
            if byTitle[book.looseWorkKey] == nil { byTitle[book.looseWorkKey] = i }
        }
        var used: Set<Int> = []
        var out: [ImportedBook] = []
        for row in rows {
            var combined = row
            let match = row.data.isbn13.flatMap { byISBN[$0] } ?? byTitle[row.data.workKey] ?? byTitle[row.data.looseWorkKey]
            if let match {
                used.insert(match)
                let found = server[match]
                combined.data = row.data.merged(with: found, policy: .fillGaps)
                if combined.data.isbn13 == nil {
                    combined.data.isbn13 = found.isbn13
                    combined.data.isbn10 = found.isbn10
                }
            }
            out.append(combined)
        }
        for (i, book) in server.enumerated() where rows.isEmpty && !used.contains(i) {
            out.append(ImportedBook(row: 0, data: book, reading: ReadingFields()))
        }
        return out
    }
}

extension SaveSummary {
    mutating func add(_ outcome: LibraryStore.Outcome) {
        switch outcome {
        case .created: created += 1
        case .updated: updated += 1
        case .unchanged: alreadyThere += 1
        case .skipped: skipped += 1
        }
    }
}
