import BooksTrackContract
import CSV
import Foundation

/// One data row of an import CSV, with the recognised fields (empty fields are nil).
struct CSVImportRow: Sendable, Hashable {
    /// 1-based data row number: the first row after the header is 1; blank rows are not counted.
    var row: Int
    var title: String?
    var author: String?
    /// ISBN13 column, with Goodreads' `="…"` wrapping removed.
    var isbn13: String?
    /// ISBN column, with Goodreads' `="…"` wrapping removed.
    var isbn: String?
    var goodreadsBookID: String?
    var myRating: Int?
    var exclusiveShelf: String?
    var dateRead: String?
    var publisher: String?
    var yearPublished: Int?
    var numberOfPages: Int?
    /// Why the row cannot be read (a short or long row): it becomes a row error in the results,
    /// and the rest of the file is still imported.
    var problem: String?
}

/// A structurally valid import CSV.
struct CSVImportTable: Sendable {
    var headers: [String]
    var columns: [CSVImportColumn: Int]
    var rows: [CSVImportRow]
}

/// Why a CSV cannot be imported at all (the job fails with `E_CSV_PROCESSING_FAILED` and this message).
struct CSVStructureError: Error, Sendable, Hashable, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// Turns CSV bytes into rows, or says precisely why the file is unusable. Pure; parsing by CSV.swift.
///
/// Accepted: UTF-8 (a BOM is ignored), a header row plus 1…`maxRows` data rows, at least 2 columns,
/// balanced RFC 4180 quotes, and a Title/Book Title or ISBN/ISBN13 column (``CSVImportColumn``).
/// Blank rows are skipped; a row with more or fewer fields than the header is kept with its
/// ``CSVImportRow/problem`` (a row error in the results).
enum CSVImportParser {
    static func parse(_ bytes: [UInt8], maxRows: Int) -> Result<CSVImportTable, CSVStructureError> {
        guard var text = String(validating: bytes, as: UTF8.self) else {
            return .failure(CSVStructureError("the file is not UTF-8 text"))
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        if text.allSatisfy(\.isWhitespace) { return .failure(CSVStructureError("the file is empty")) }
        if let quoteProblem = checkQuotes(Array(text.utf8)) { return .failure(quoteProblem) }

        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: false)
        } catch {
            return .failure(CSVStructureError("the file could not be read as CSV: \(error)"))
        }
        var header: [String]?
        var columns: [CSVImportColumn: Int] = [:]
        var rows: [CSVImportRow] = []
        var dataRowCount = 0
        while let fields = reader.next() {
            if fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            guard let header else {
                let names = fields.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                if names.count < 2 {
                    return .failure(
                        CSVStructureError(
                            "the header row has only 1 column; an import needs at least 2 (for example Title and Author)"
                        )
                    )
                }
                for (index, name) in names.enumerated() {
                    if let column = CSVImportColumn.recognise(name), columns[column] == nil { columns[column] = index }
                }
                if CSVImportColumn.identifying.allSatisfy({ columns[$0] == nil }) {
                    let found = names.map { "'\($0)'" }.joined(separator: ", ")
                    return .failure(
                        CSVStructureError(
                            "no title or ISBN column: the header must name one of \(CSVImportColumn.identifyingHeaders) (found \(found))"
                        )
                    )
                }
                header = names
                continue
            }
            dataRowCount += 1
            guard dataRowCount <= maxRows else { continue }
            var row = makeRow(number: dataRowCount, fields: fields, columns: columns)
            if fields.count != header.count {
                // One malformed row is that row's error, not the whole file's.
                row.problem =
                    "the row has \(fields.count) field\(fields.count == 1 ? "" : "s") but the header has \(header.count)"
            }
            rows.append(row)
        }
        guard let header else { return .failure(CSVStructureError("the file is empty")) }
        if dataRowCount == 0 { return .failure(CSVStructureError("the file has a header row but no data rows")) }
        if dataRowCount > maxRows {
            return .failure(
                CSVStructureError(
                    "the file has \(grouped(dataRowCount)) data rows; at most \(grouped(maxRows)) can be imported at once"
                )
            )
        }
        return .success(CSVImportTable(headers: header, columns: columns, rows: rows))
    }

    /// RFC 4180 quote check: every quoted field is closed, and a closing quote is followed by a
    /// comma, a line end or the end of the file. Quotes inside unquoted fields are literal.
    static func checkQuotes(_ bytes: [UInt8]) -> CSVStructureError? {
        let quote = UInt8(ascii: "\"")
        let comma = UInt8(ascii: ",")
        let lf = UInt8(ascii: "\n")
        let cr = UInt8(ascii: "\r")
        var line = 1
        var openedOn = 1
        var inQuotes = false
        var atFieldStart = true
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if inQuotes {
                if b == quote {
                    if i + 1 < bytes.count, bytes[i + 1] == quote {
                        i += 2
                        continue
                    }
                    inQuotes = false
                    atFieldStart = false
                    if i + 1 < bytes.count {
                        let next = bytes[i + 1]
                        if next != comma, next != lf, next != cr {
                            return CSVStructureError(
                                "malformed quotes on line \(line): a closing quote must be followed by a comma or the end of the line"
                            )
                        }
                    }
                } else if b == lf {
                    line += 1
                }
            } else if b == quote, atFieldStart {
                inQuotes = true
                openedOn = line
            } else if b == comma {
                atFieldStart = true
            } else if b == lf {
                line += 1
                atFieldStart = true
            } else if b == cr {
                atFieldStart = true
            } else {
                atFieldStart = false
            }
            i += 1
        }
        if inQuotes {
            return CSVStructureError(
                "unbalanced quotes: the quoted field that starts on line \(openedOn) is never closed"
            )
        }
        return nil
    }

    /// Removes spreadsheet formula wrapping as Goodreads writes ISBNs: `="9780439023481"` → `9780439023481`.
    static func unwrapFormula(_ raw: String) -> String {
        var text = raw.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("=") {
            text.removeFirst()
            text = text.trimmingCharacters(in: .whitespaces)
            if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
                text = String(text.dropFirst().dropLast())
            }
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    private static func makeRow(number: Int, fields: [String], columns: [CSVImportColumn: Int]) -> CSVImportRow {
        func value(_ column: CSVImportColumn) -> String? {
            guard let index = columns[column], index < fields.count else { return nil }
            let text = unwrapFormula(fields[index])
            return text.isEmpty ? nil : text
        }
        return CSVImportRow(
            row: number,
            title: value(.title),
            author: value(.author)
                ?? value(.authors).flatMap {
                    $0.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
                },
            isbn13: value(.isbn13),
            isbn: value(.isbn) ?? value(.isbnUID).flatMap { ISBN($0) == nil ? nil : $0 },
            goodreadsBookID: value(.goodreadsBookID),
            myRating: value(.myRating).flatMap { Int($0) },
            exclusiveShelf: value(.exclusiveShelf),
            dateRead: value(.dateRead),
            publisher: value(.publisher),
            yearPublished: value(.yearPublished).flatMap { Int($0) },
            numberOfPages: value(.numberOfPages).flatMap { Int($0) }
        )
    }

    /// `10000` → `10,000`.
    static func grouped(_ n: Int) -> String { JobLimits.grouped(n) }
}
