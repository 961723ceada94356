import BooksTrackContract
import Foundation

/// How a finished import job's server books and the uploaded file's rows come together (see
/// `BookLibrary.importJob`): which server book each row is, and what the row becomes. Pure: the
/// library saves what this decides.
package enum ImportJobMerge {
    /// The rows with the server's data merged in (see `BookLibrary.importJob`), then — only when there are no
    /// rows — the server's books (as to-read rows). With rows, every server book came from one of them.
    package static func combine(
        _ server: [BookData],
        rows: [ImportedBook],
        matches: [ImportMatch] = []
    ) -> [ImportedBook] {
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
    package static func matchedBook(
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
    package static func row(_ row: ImportedBook, matchedTo book: BookData) -> ImportedBook {
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
    package static func csvTitles(of book: BookData, in matches: [ImportMatch]) -> [Provenance] {
        matches.filter { match in
            let isbn = match.isbn.flatMap({ ISBN($0) })?.isbn13
            return (isbn != nil ? isbn == book.isbn13 : match.matchedTitle == book.title)
                && match.csvTitle != book.title
        }.map { .csvTitle($0.csvTitle) }
    }
}
