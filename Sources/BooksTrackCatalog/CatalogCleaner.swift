import CSV
import Foundation

/// What the cleaner did, for the report and the `bts` dev subcommand.
package struct CleaningReport: Sendable, Hashable, CustomStringConvertible {
    /// Data rows read (header excluded).
    package var rows: Int = 0
    /// Rows written to the catalog.
    package var written: Int = 0
    /// Rows skipped because a required field (id, title) was unusable.
    package var skipped: Int = 0
    package var withISBN: Int = 0
    package var missingISBN: Int = 0
    /// Non-empty `isbn` values whose ISBN-10 checksum failed (kept as books without ISBN).
    package var invalidISBN10: Int = 0
    package var isbn10WithX: Int = 0
    package var withSeries: Int = 0
    package var withYear: Int = 0
    package var negativeYears: Int = 0
    package var withoutLanguage: Int = 0
    package var placeholderImagesDropped: Int = 0
    /// Books per normalized language code.
    package var languages: [String: Int] = [:]
    /// Bytes of the written file.
    package var outputBytes: Int = 0

    package init() {}

    package var description: String {
        let langs = languages.sorted { $0.value == $1.value ? $0.key < $1.key : $0.value > $1.value }
            .map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return """
            rows=\(rows) written=\(written) skipped=\(skipped) withISBN=\(withISBN) missingISBN=\(missingISBN) \
            invalidISBN10=\(invalidISBN10) isbn10WithX=\(isbn10WithX) withSeries=\(withSeries) withYear=\(withYear) \
            negativeYears=\(negativeYears) withoutLanguage=\(withoutLanguage) \
            placeholderImagesDropped=\(placeholderImagesDropped) bytes=\(outputBytes)
            languages: \(langs)
            """
    }
}

/// Turns goodbooks-10k `books.csv` into the committed cleaned catalog (`Resources/catalog.tsv`).
package enum CatalogCleaner {
    /// Errors that stop cleaning.
    package enum Failure: Error, Sendable, CustomStringConvertible {
        case unreadable(String)
        case missingColumn(String)
        case csv(String)

        package var description: String {
            switch self {
            case .unreadable(let path): return "cannot read \(path)"
            case .missingColumn(let name): return "books.csv has no '\(name)' column"
            case .csv(let message): return "CSV error: \(message)"
            }
        }
    }

    static let requiredColumns = [
        "book_id", "goodreads_book_id", "work_id", "isbn", "authors", "original_publication_year",
        "original_title", "title", "language_code", "average_rating", "ratings_count", "image_url", "small_image_url",
    ]

    /// Reads `csvAt`, cleans every row and writes the TSV catalog to `to` (atomically).
    package static func clean(csvAt source: URL, to destination: URL) throws -> CleaningReport {
        guard let data = FileManager.default.contents(atPath: source.path) else {
            throw Failure.unreadable(source.path)
        }
        var (books, report) = try clean(csvData: data)
        let text = CatalogResourceTSV.encode(books)
        let bytes = Data(text.utf8)
        try bytes.write(to: destination, options: .atomic)
        report.outputBytes = bytes.count
        books.removeAll()
        return report
    }

    /// Cleans CSV bytes in memory (used by `clean(csvAt:to:)` and the tests).
    package static func clean(csvData: Data) throws -> ([CatalogBook], CleaningReport) {
        let stream = InputStream(data: csvData)
        let reader: CSVReader
        do {
            reader = try CSVReader(stream: stream, hasHeaderRow: true)
        } catch {
            throw Failure.csv(String(describing: error))
        }
        let header = reader.headerRow ?? []
        var column: [String: Int] = [:]
        for (i, name) in header.enumerated() { column[name.trimmingCharacters(in: .whitespaces)] = i }
        for name in requiredColumns where column[name] == nil { throw Failure.missingColumn(name) }

        var report = CleaningReport()
        var books: [CatalogBook] = []
        while let row = reader.next() {
            report.rows += 1
            func field(_ name: String) -> String {
                guard let i = column[name], i < row.count else { return "" }
                return row[i]
            }
            if let book = cleanRow(field, report: &report) {
                books.append(book)
                report.written += 1
            } else {
                report.skipped += 1
            }
        }
        if let error = reader.error { throw Failure.csv(String(describing: error)) }
        return (books, report)
    }

    static func cleanRow(_ field: (String) -> String, report: inout CleaningReport) -> CatalogBook? {
        guard let id = Int(field("book_id").trimmingCharacters(in: .whitespaces)) else { return nil }
        let title = field("title").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { return nil }

        var isbn10: String?
        var isbn13: String?
        switch CatalogFieldCleaning.isbn(field("isbn")) {
        case .missing: report.missingISBN += 1
        case .invalid: report.invalidISBN10 += 1
        case .valid(let ten, let thirteen):
            isbn10 = ten
            isbn13 = thirteen
            report.withISBN += 1
            if ten.hasSuffix("X") { report.isbn10WithX += 1 }
        }

        let (_, series) = CatalogFieldCleaning.series(inTitle: title)
        if series != nil { report.withSeries += 1 }
        var original = field("original_title").trimmingCharacters(in: .whitespacesAndNewlines)
        if original == title { original = "" }

        let year = CatalogFieldCleaning.year(field("original_publication_year"))
        if let year {
            report.withYear += 1
            if year < 0 { report.negativeYears += 1 }
        }
        let language = CatalogFieldCleaning.language(field("language_code"))
        report.languages[language ?? "none", default: 0] += 1
        if language == nil { report.withoutLanguage += 1 }

        let rawImage = field("image_url")
        let rawSmall = field("small_image_url")
        let image = CatalogFieldCleaning.imageURL(rawImage)
        let small = CatalogFieldCleaning.imageURL(rawSmall)
        if image == nil, !rawImage.isEmpty { report.placeholderImagesDropped += 1 }

        return CatalogBook(
            id: id,
            goodreadsBookID: Int(field("goodreads_book_id").trimmingCharacters(in: .whitespaces)) ?? 0,
            goodreadsWorkID: Int(field("work_id").trimmingCharacters(in: .whitespaces)) ?? 0,
            isbn10: isbn10,
            isbn13: isbn13,
            title: title,
            originalTitle: original.isEmpty ? nil : original,
            series: series?.name,
            seriesNumber: series?.number,
            authors: CatalogFieldCleaning.authors(field("authors")),
            year: year,
            language: language,
            averageRating: Double(field("average_rating").trimmingCharacters(in: .whitespaces)) ?? 0,
            ratingsCount: Int(field("ratings_count").trimmingCharacters(in: .whitespaces)) ?? 0,
            imageURL: image,
            smallImageURL: small
        )
    }
}
