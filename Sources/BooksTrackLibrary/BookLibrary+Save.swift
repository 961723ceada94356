import BooksTrackContract
import Foundation
import GRDB

extension BookLibrary {
    /// Saves found books (search, similar, semantic, recommendations, enrichment): a new book goes on
    /// `shelf` (dated today); a stored one gains data (`policy` defaults to `.refresh` for
    /// enrichment, `.fillGaps` otherwise) and keeps the user's fields, except that `movingStored`
    /// moves it to `shelf` (`save --shelf`). One transaction.
    package func save(
        _ books: [BookData],
        from provenance: Provenance,
        shelf: Shelf = .toRead,
        movingStored: Bool = false,
        policy: MergePolicy? = nil
    ) async throws(LibraryError) -> SaveSummary {
        let policy = policy ?? (provenance.source == .enrichment ? .refresh : .fillGaps)
        let reading: LibraryStore.ReadingInput = movingStored ? .shelve(shelf) : .none(shelf: shelf)
        return try await upsertAll(
            books.map { book in (book, reading, []) },
            policy: policy,
            create: true,
            provenance: provenance
        )
    }

    /// Updates the data of books already in the library with enrichment results (new values
    /// replace stored ones); books not in the library are counted as `skipped`, not added.
    package func refresh(_ books: [BookData], from provenance: Provenance) async throws(LibraryError) -> SaveSummary {
        try await upsertAll(
            books.map { book in (book, .none(shelf: .toRead), []) },
            policy: .refresh,
            create: false,
            provenance: provenance
        )
    }

    /// Imports the rows of an export file: data fills what the library lacks, the user's fields
    /// are carried in (an empty cell keeps the library's value). Importing the same file twice
    /// changes nothing the second time. One transaction.
    package func importBooks(
        _ rows: [ImportedBook],
        from provenance: Provenance
    ) async throws(LibraryError) -> SaveSummary {
        try await upsertAll(
            rows.map { row in (row.data, .carry(row.reading), row.sources) },
            policy: .fillGaps,
            create: true,
            provenance: provenance
        )
    }

    /// Saves a finished import job: every row of the uploaded file (when the caller still has it)
    /// with the server's data for its book, and the server's books no row matched.
    ///
    /// A row the server says it matched by its title (`results.matches`: bts's own server) and that
    /// has no ISBN of its own takes the matched book's ISBN, title, authors and series, its other
    /// columns filling what the book lacks, and keeps its own title as a `csv-title` source (a row
    /// with an ISBN the catalog lacks keeps it and its title: `ImportJobMerge.row(_:matchedTo:)`). Other rows are
    /// matched to the server's books as before: by ISBN, else by title and first author (the server
    /// may have matched a row to another edition); a row without an ISBN adopts the server's.
    package func importJob(
        _ results: ImportResults,
        jobID: String,
        rows: [ImportedBook]
    ) async throws(LibraryError)
        -> SaveSummary
    {
        let server = results.books.map(BookData.init)
        guard !rows.isEmpty else {
            // No file: the server's books are data only (a book already there keeps its shelf).
            let items = server.map { book in
                (
                    book, LibraryStore.ReadingInput.none(shelf: .toRead),
                    ImportJobMerge.csvTitles(of: book, in: results.matches)
                )
            }
            return try await upsertAll(items, policy: .fillGaps, create: true, provenance: .importJob(jobID))
        }
        return try await importBooks(
            ImportJobMerge.combine(server, rows: rows, matches: results.matches),
            from: .importJob(jobID)
        )
    }

    /// Upserts every (data, reading, sources) item in one transaction and counts the outcomes.
    private func upsertAll(
        _ items: [(BookData, LibraryStore.ReadingInput, [Provenance])],
        policy: MergePolicy,
        create: Bool,
        provenance: Provenance
    ) async throws(LibraryError) -> SaveSummary {
        let today = self.today()
        return try await write { db in
            var summary = SaveSummary()
            for (data, reading, sources) in items {
                summary.add(
                    try LibraryStore.upsert(
                        db,
                        data: data,
                        reading: reading,
                        policy: policy,
                        create: create,
                        provenance: provenance,
                        sources: sources,
                        today: today
                    )
                )
            }
            return summary
        }
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
