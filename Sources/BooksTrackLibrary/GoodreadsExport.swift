import Foundation

/// Writes the library as Goodreads writes its "Export Library" CSV: the same header and column
/// order, RFC 4180 quoting only where a cell needs it, ISBN cells as `="…"` formulas, dates as
/// `YYYY/MM/DD`, `My Rating` 0 for unrated. Goodreads and StoryGraph both import this format.
///
/// Goodreads ratings are whole stars: a quarter-star rating (StoryGraph) is rounded half up.
package enum GoodreadsExport {
    package static let header = [
        "Book Id", "Title", "Author", "Author l-f", "Additional Authors", "ISBN", "ISBN13", "My Rating",
        "Average Rating", "Publisher", "Binding", "Number of Pages", "Year Published", "Original Publication Year",
        "Date Read", "Date Added", "Bookshelves", "Bookshelves with positions", "Exclusive Shelf", "My Review",
        "Spoiler", "Private Notes", "Read Count", "Owned Copies",
    ]

    /// The whole file (header, one line per book, `\n` line ends).
    package static func csv(_ books: [LibraryBook]) -> String {
        var out = header.map(quote).joined(separator: ",") + "\n"
        var positions: [String: Int] = [:]
        for book in books {
            let cells = row(book, positions: &positions).enumerated().map { column, cell in
                formulaColumns.contains(column) ? cell : neutralised(cell)
            }
            out += cells.map(quote).joined(separator: ",") + "\n"
        }
        return out
    }

    /// The cells of one book; `positions` numbers books within each shelf ("to-read (#3)").
    static func row(_ book: LibraryBook, positions: inout [String: Int]) -> [String] {
        let d = book.data
        let r = book.reading
        var shelves = r.shelf == .read ? [] : [r.shelf.rawValue]
        shelves += r.tags.filter { $0 != r.shelf.rawValue }
        let withPositions = shelves.map { name -> String in
            positions[name, default: 0] += 1
            return "\(name) (#\(positions[name] ?? 1))"
        }
        return [
            d.goodreadsBookID ?? "",
            d.title,
            d.authors.first ?? "",
            d.authors.first.map(lastFirst) ?? "",
            d.authors.dropFirst().joined(separator: ", "),
            "=\"\(d.isbn10 ?? "")\"",
            "=\"\(d.isbn13 ?? "")\"",
            String(r.rating.map { Int($0.rounded(.toNearestOrAwayFromZero)) } ?? 0),
            d.averageRating.map { String(format: "%.2f", $0) } ?? "",
            d.publisher ?? "",
            d.format ?? "",
            d.pageCount.map(String.init) ?? "",
            d.publishedYear.map(String.init) ?? "",
            d.originalYear.map(String.init) ?? "",
            r.dateRead?.slashed ?? "",
            r.dateAdded?.slashed ?? "",
            shelves.joined(separator: ", "),
            withPositions.joined(separator: ", "),
            r.shelf.rawValue,
            r.review ?? "",
            "",
            r.privateNotes ?? "",
            r.readCount.map(String.init) ?? "",
            r.ownedCopies.map(String.init) ?? "",
        ]
    }

    /// The ISBN columns, written as `="…"` formulas as Goodreads writes them.
    static let formulaColumns: Set<Int> = Set(["ISBN", "ISBN13"].compactMap { header.firstIndex(of: $0) })

    /// The characters that make a spreadsheet read a cell as a formula.
    static let formulaStarts: Set<Character> = ["=", "+", "-", "@"]

    /// A cell a spreadsheet would run as a formula (`=HYPERLINK(…)` in a title or a note) with a
    /// leading `'`, which shows it as text (OWASP's advice on CSV injection). The reader drops it.
    static func neutralised(_ cell: String) -> String {
        guard let first = cell.first, formulaStarts.contains(first) else { return cell }
        return "'" + cell
    }

    /// "Suzanne Collins" → "Collins, Suzanne"; one-word names stay as they are.
    static func lastFirst(_ name: String) -> String {
        let parts = name.split(separator: " ")
        guard parts.count > 1, let last = parts.last else { return name }
        return "\(last), \(parts.dropLast().joined(separator: " "))"
    }

    /// RFC 4180: quoted (inner quotes doubled) only when the cell holds a comma, quote or line break.
    static func quote(_ cell: String) -> String {
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// An export as written: the file's text, how many books it holds, how many it leaves out.
package struct GoodreadsExportFile: Sendable, Hashable {
    package var csv: String
    package var books: Int
    /// Books a damaged library could not give back whole (see `LibraryError.damaged`).
    package var unreadable: Int
}

extension BookLibrary {
    /// The library (or the books matching `filter`) as a Goodreads export CSV, oldest addition
    /// first; books a damaged file cannot give back are left out and counted.
    package func exportGoodreadsFile(
        _ filter: LibraryFilter = LibraryFilter()
    ) async throws(LibraryError)
        -> GoodreadsExportFile
    {
        let found = try await reader.readableBooks(filter, sort: LibrarySort(.dateAdded, descending: false))
        return GoodreadsExportFile(
            csv: GoodreadsExport.csv(found.books),
            books: found.books.count,
            unreadable: found.unreadable
        )
    }

    /// The CSV text of `exportGoodreadsFile(_:)`.
    package func exportGoodreads(_ filter: LibraryFilter = LibraryFilter()) async throws(LibraryError) -> String {
        try await exportGoodreadsFile(filter).csv
    }
}
