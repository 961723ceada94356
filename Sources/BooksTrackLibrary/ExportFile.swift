import CSV
import Foundation

/// The export formats the library reads.
package enum ExportFormat: String, Sendable, Hashable, CaseIterable {
    /// Goodreads' "Export Library" CSV (also any CSV with Goodreads' column names, e.g. Title, Author, ISBN).
    case goodreads
    /// The StoryGraph's export CSV.
    case storyGraph = "storygraph"
}

/// A row the reader kept but could not read entirely, or skipped.
package struct RowProblem: Hashable, Sendable, CustomStringConvertible {
    /// 1-based data row.
    package var row: Int
    package var message: String
    package var description: String { "row \(row): \(message)" }
}

/// An export file read into library rows.
package struct ExportFile: Hashable, Sendable {
    package var format: ExportFormat
    package var books: [ImportedBook]
    package var problems: [RowProblem]
}

/// Reads Goodreads and StoryGraph exports (CSV parsing by CSV.swift). The format is told by the
/// header; cells are matched by column name, so column order and extra columns do not matter.
package enum ExportReader {
    /// At most this many data rows are read.
    package static let maxRows = 100_000

    package static func read(_ bytes: Data) throws(LibraryError) -> ExportFile {
        guard let text = String(data: bytes, encoding: .utf8) else {
            throw .unreadableFile("the file is not UTF-8 text")
        }
        return try read(text)
    }

    package static func read(_ text: String) throws(LibraryError) -> ExportFile {
        var text = text
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        // CSV.swift drops a last line that ends in an empty field when no line break follows it.
        if !text.hasSuffix("\n") { text += "\n" }
        if let line = unclosedQuoteLine(text) {
            throw .unreadableFile(
                "line \(line) opens a quote that is never closed (the rest of the file would be one cell); nothing was imported"
            )
        }
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: false)
        } catch {
            throw .unreadableFile("the file could not be read as CSV")
        }
        var header: [String: Int]?
        var format = ExportFormat.goodreads
        var books: [ImportedBook] = []
        var problems: [RowProblem] = []
        var number = 0
        while let fields = reader.next() {
            if fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            guard let columns = header else {
                var map: [String: Int] = [:]
                for (i, name) in fields.enumerated() {
                    let key = name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
                    if map[key] == nil { map[key] = i }
                }
                guard let detected = detect(map) else {
                    throw .unreadableFile(
                        "not a Goodreads or StoryGraph export: the header has no Title or ISBN column"
                    )
                }
                format = detected
                header = map
                continue
            }
            number += 1
            guard number <= maxRows else {
                throw .unreadableFile("the file has more than \(maxRows) rows")
            }
            let cells = Cells(fields: fields, columns: columns)
            let result = format == .goodreads ? goodreadsRow(cells, row: number) : storyGraphRow(cells, row: number)
            problems += result.problems.map { RowProblem(row: number, message: $0) }
            if let book = result.book { books.append(book) }
        }
        guard header != nil else { throw .unreadableFile("the file is empty") }
        if reader.error != nil { throw .unreadableFile("the file is not valid CSV (check its quotes)") }
        return ExportFile(format: format, books: books, problems: problems)
    }

    /// The line of a quote still open at the end of the text (a doubled quote inside a quoted
    /// cell closes and opens again), nil when every quote closes. CSV.swift read everything after
    /// such a quote as one cell: every later row became part of one title.
    static func unclosedQuoteLine(_ text: String) -> Int? {
        var line = 1
        var openedOn: Int?
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\"") {
                openedOn = openedOn == nil ? line : nil
            } else if byte == UInt8(ascii: "\n") {
                line += 1
            }
        }
        return openedOn
    }

    static func detect(_ columns: [String: Int]) -> ExportFormat? {
        if columns["read status"] != nil || columns["isbn/uid"] != nil || columns["star rating"] != nil {
            return .storyGraph
        }
        if columns["title"] != nil || columns["isbn"] != nil || columns["isbn13"] != nil { return .goodreads }
        return nil
    }

    struct Cells {
        var fields: [String]
        var columns: [String: Int]
        /// The trimmed cell under `name` (lower-case), nil when missing or empty; the `'` bts's
        /// export puts before a would-be formula is dropped.
        subscript(_ name: String) -> String? {
            guard let i = columns[name], i < fields.count else { return nil }
            var text = fields[i].trimmingCharacters(in: .whitespacesAndNewlines)
            if text.hasPrefix("'"), let second = text.dropFirst().first, GoodreadsExport.formulaStarts.contains(second)
            {
                text.removeFirst()
            }
            return text.isEmpty ? nil : text
        }
    }

    /// A cell as quoted in a message: at most 20 characters, control characters shown as `?`.
    static func excerpt(_ text: String) -> String {
        String(
            text.prefix(20).map { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } ? "?" : $0 }
        )
    }

    /// Comma-separated names, trimmed, empty ones dropped.
    static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func int(_ text: String?, _ what: String, _ problems: inout [String]) -> Int? {
        guard let text else { return nil }
        guard let n = Int(text) else {
            problems.append("\(what) '\(excerpt(text))' is not a number; left empty")
            return nil
        }
        return n
    }

    static func date(_ text: String?, _ what: String, _ problems: inout [String]) -> BookDate? {
        guard let text else { return nil }
        guard let d = BookDate(parsing: text) else {
            problems.append("\(what) '\(excerpt(text))' is not a date (YYYY/MM/DD); left empty")
            return nil
        }
        return d
    }

    static func goodreadsRow(_ c: Cells, row: Int) -> (book: ImportedBook?, problems: [String]) {
        var problems: [String] = []
        let isbn13 = c["isbn13"].map(BookData.unwrapCell).flatMap { $0.isEmpty ? nil : $0 }
        let isbn10 = c["isbn"].map(BookData.unwrapCell).flatMap { $0.isEmpty ? nil : $0 }
        let title = c["title"] ?? ""
        let authors = [c["author"]].compactMap { $0 } + list(c["additional authors"])
        let data = BookData(
            title: title,
            authors: authors,
            isbn: isbn13 ?? isbn10,
            goodreadsBookID: c["book id"],
            publisher: c["publisher"],
            publishedYear: int(c["year published"], "Year Published", &problems),
            originalYear: int(c["original publication year"], "Original Publication Year", &problems),
            pageCount: int(c["number of pages"], "Number of Pages", &problems),
            format: c["binding"],
            averageRating: c["average rating"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil }
        )
        if let raw = isbn13 ?? isbn10, data.isbn13 == nil {
            problems.append("ISBN '\(excerpt(raw))' is not a valid ISBN; the book is kept by title and author")
        }
        guard !data.title.isEmpty else {
            problems.append("no title; row skipped")
            return (nil, problems)
        }
        var rating: Double?
        if let r = int(c["my rating"], "My Rating", &problems), r != 0 {
            if (1...5).contains(r) {
                rating = Double(r)
            } else {
                problems.append("My Rating \(r) is not 0–5; left empty")
            }
        }
        let shelf = Shelf(rawValue: c["exclusive shelf"] ?? "to-read")
        let builtIn: Set<String> = [Shelf.toRead.rawValue, Shelf.currentlyReading.rawValue, Shelf.read.rawValue]
        let tags = list(c["bookshelves"]).map { Shelf(rawValue: $0).rawValue }
            .filter { $0 != shelf.rawValue && !builtIn.contains($0) }
        let reading = ReadingFields(
            shelf: shelf,
            tags: tags,
            rating: rating,
            dateRead: date(c["date read"], "Date Read", &problems),
            dateAdded: date(c["date added"], "Date Added", &problems),
            readCount: int(c["read count"], "Read Count", &problems),
            review: c["my review"],
            privateNotes: c["private notes"],
            ownedCopies: int(c["owned copies"], "Owned Copies", &problems)
        )
        return (ImportedBook(row: row, data: data, reading: reading), problems)
    }

    static func storyGraphRow(_ c: Cells, row: Int) -> (book: ImportedBook?, problems: [String]) {
        var problems: [String] = []
        let uid = c["isbn/uid"].map(BookData.unwrapCell)
        let data = BookData(
            title: c["title"] ?? "",
            authors: list(c["authors"]),
            isbn: uid,
            asin: uid,
            format: c["format"]
        )
        if let uid, data.isbn13 == nil, data.asin == nil {
            problems.append(
                "ISBN/UID '\(excerpt(uid))' is neither an ISBN nor an ASIN; the book is kept by title and author"
            )
        }
        guard !data.title.isEmpty else {
            problems.append("no title; row skipped")
            return (nil, problems)
        }
        var rating: Double?
        if let text = c["star rating"] {
            if let r = Double(text), ReadingFields.isValidRating(r) {
                rating = r
            } else if Double(text) != 0 {
                problems.append("Star Rating '\(excerpt(text))' is not 0.25–5; left empty")
            }
        }
        var dateRead = date(c["last date read"], "Last Date Read", &problems)
        if dateRead == nil, let all = c["dates read"] {
            // "2023/01/02-2023/02/01, 2024/03/01" → the last end date.
            let last = all.split(separator: ",").last.map { String($0) } ?? all
            let end = last.split(separator: "-").last.map { String($0) } ?? last
            dateRead = BookDate(parsing: end)
        }
        var owned: Int?
        switch c["owned?"]?.lowercased() {
        case "yes"?, "true"?: owned = 1
        case "no"?, "false"?: owned = 0
        default: owned = nil
        }
        let reading = ReadingFields(
            shelf: Shelf(rawValue: c["read status"] ?? "to-read"),
            tags: list(c["tags"]),
            rating: rating,
            dateRead: dateRead,
            dateAdded: date(c["date added"], "Date Added", &problems),
            readCount: int(c["read count"], "Read Count", &problems),
            review: c["review"],
            ownedCopies: owned
        )
        return (ImportedBook(row: row, data: data, reading: reading), problems)
    }
}
