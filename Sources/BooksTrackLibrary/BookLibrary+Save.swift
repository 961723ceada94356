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
    /// with an ISBN the catalog lacks keeps it and its title: `row(_:matchedTo:)`). Other rows are
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
                (book, LibraryStore.ReadingInput.none(shelf: .toRead), Self.csvTitles(of: book, in: results.matches))
            }
            return try await upsertAll(items, policy: .fillGaps, create: true, provenance: .importJob(jobID))
        }
        return try await importBooks(
            Self.combine(server, rows: rows, matches: results.matches),
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

    /// The rows with the server's data merged in (see `importJob`), then — only when there are no
    /// rows — the server's books (as to-read rows). With rows, every server book came from one of them.
    static func combine(_ server: [BookData], rows: [ImportedBook], matches: [ImportMatch] = []) -> [ImportedBook] {
        var byISBN: [String: Int] = [:]
        var byTitle: [String: Int] = [:]
        for (i, book) in server.enumerated() {
            if let isbn = book.isbn13, byISBN[isbn] == nil { byISBN[isbn] = i }
            if byTitle[book.workKey] == nil { byTitle[book.workKey] = i }
            if byTitle[book.looseWorkKey] == nil { byTitle[book.looseWorkKey] = i }
        }
        var matchByRow: [Int: ImportMatch] = [:]
        for match in matches where matchByRow[match.row] == nil { matchByRow[match.row] = match }
        var used: Set<Int> = []
        var out: [ImportedBook] = []
        for row in rows {
            if let match = matchByRow[row.row], let found = matchedBook(match, of: row, in: server, byISBN: byISBN) {
                used.insert(found)
                out.append(Self.row(row, matchedTo: server[found]))
                continue
            }
            var combined = row
            let match =
                row.data.isbn13.flatMap { byISBN[$0] } ?? byTitle[row.data.workKey] ?? byTitle[row.data.looseWorkKey]
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

    /// The server's book a match names for `row`: only when the match is this row's (its title is
    /// the row's: a file changed since the upload numbers its rows otherwise), by ISBN, else by title.
    static func matchedBook(
        _ match: ImportMatch,
        of row: ImportedBook,
        in server: [BookData],
        byISBN: [String: Int]
    ) -> Int? {
        guard match.csvTitle.trimmingCharacters(in: .whitespacesAndNewlines) == row.data.title else { return nil }
        if let isbn = match.isbn.flatMap({ ISBN($0) })?.isbn13, let i = byISBN[isbn] { return i }
        let title = match.matchedTitle.trimmingCharacters(in: .whitespacesAndNewlines)
        return server.firstIndex { $0.title == title }
    }

    /// `row` as the book it was matched to. A row without an ISBN of its own becomes the book (its
    /// ISBN, title, authors, series), its other columns filling what the book lacks, its own title
    /// kept as a source. A row with an ISBN the catalog lacks names its own edition (another
    /// printing, another language): its ISBN and title stay, the book filling what the row lacks.
    static func row(_ row: ImportedBook, matchedTo book: BookData) -> ImportedBook {
        var combined = row
        guard row.data.isbn13 == nil else {
            combined.data = row.data.merged(with: book, policy: .fillGaps)
            return combined
        }
        combined.data = book.merged(with: row.data, policy: .fillGaps)
        if row.data.title != book.title { combined.sources.append(.csvTitle(row.data.title)) }
        return combined
    }

    /// The `csv-title` sources of a server book: the titles of the rows matched to it by title.
    static func csvTitles(of book: BookData, in matches: [ImportMatch]) -> [Provenance] {
        matches.filter { match in
            let isbn = match.isbn.flatMap({ ISBN($0) })?.isbn13
            return (isbn != nil ? isbn == book.isbn13 : match.matchedTitle == book.title)
                && match.csvTitle != book.title
        }.map { .csvTitle($0.csvTitle) }
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
