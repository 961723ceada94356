import BooksTrackContract
import Foundation

/// What is known about a book from outside the user: an API result, an enrichment, or the data
/// columns of an export file. Saving it never touches the user's own fields.
package struct BookData: Hashable, Sendable {
    package var title: String
    /// Primary author first.
    package var authors: [String]
    /// ISBN-13 (an ISBN-10 given to `init` is normalised to it); nil when unknown or invalid.
    package var isbn13: String?
    /// The ISBN-10 form, when the ISBN has one.
    package var isbn10: String?
    /// An Amazon ASIN (StoryGraph's `ISBN/UID` may hold one instead of an ISBN).
    package var asin: String?
    package var goodreadsBookID: String?
    package var series: String?
    package var seriesNumber: Double?
    package var publisher: String?
    /// `YYYY-MM-DD`, `YYYY-MM` or `YYYY`.
    package var publishedDate: String?
    /// The edition's year.
    package var publishedYear: Int?
    /// The work's first publication year.
    package var originalYear: Int?
    package var pageCount: Int?
    /// Binding as the source says it ("Paperback", "Kindle Edition", "audio").
    package var format: String?
    package var language: String?
    package var coverURL: String?
    package var description: String?
    package var subjects: [String]
    package var averageRating: Double?

    /// `isbn` may be an ISBN-10 or -13 with hyphens, or Goodreads' `="…"` cell; an invalid one is
    /// kept as nothing (the book is then keyed by title and author). When no series is given, a
    /// Goodreads-style title suffix "(Series, #n)" supplies it.
    package init(
        title: String,
        authors: [String] = [],
        isbn: String? = nil,
        asin: String? = nil,
        goodreadsBookID: String? = nil,
        series: String? = nil,
        seriesNumber: Double? = nil,
        publisher: String? = nil,
        publishedDate: String? = nil,
        publishedYear: Int? = nil,
        originalYear: Int? = nil,
        pageCount: Int? = nil,
        format: String? = nil,
        language: String? = nil,
        coverURL: String? = nil,
        description: String? = nil,
        subjects: [String] = [],
        averageRating: Double? = nil
    ) {
        self.title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        self.authors = authors.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        let parsed = isbn.flatMap { ISBN(BookData.unwrapCell($0)) }
        self.isbn13 = parsed?.isbn13
        self.isbn10 = parsed?.isbn10
        self.asin = asin.flatMap(BookData.normalizedASIN)
        self.goodreadsBookID = goodreadsBookID.nonEmpty
        let derived = series == nil ? TextKey.seriesSuffix(of: self.title) : nil
        self.series = series.nonEmpty ?? derived?.name
        self.seriesNumber = seriesNumber ?? derived?.number
        self.publisher = publisher.nonEmpty
        self.publishedDate = publishedDate.nonEmpty
        self.publishedYear = publishedYear ?? publishedDate.flatMap { Int($0.prefix(4)) }
        self.originalYear = originalYear
        self.pageCount = pageCount.flatMap { $0 > 0 ? $0 : nil }
        self.format = format.nonEmpty
        self.language = language.nonEmpty
        self.coverURL = coverURL.nonEmpty
        self.description = description.nonEmpty
        self.subjects = subjects.filter { !$0.isEmpty }
        self.averageRating = averageRating
    }

    /// The edition key: `isbn:<ISBN-13>`, else `title:<normalised title>|<normalised first author>`.
    package var key: String {
        if let isbn13 { return "isbn:" + isbn13 }
        return "title:" + TextKey.title(title) + "|" + TextKey.author(authors.first ?? "")
    }

    /// The work key: normalised title without its series suffix, and first author.
    var workKey: String { TextKey.title(title) + "|" + TextKey.author(authors.first ?? "") }

    /// The work key of the title cut at its first " (" or ":" ("Dune (Dune Chronicles #1)" → "dune"),
    /// for matching a file's row to the edition a server chose.
    var looseWorkKey: String {
        var short = title
        if let cut = short.range(of: " (") { short = String(short[..<cut.lowerBound]) }
        if let cut = short.range(of: ":") { short = String(short[..<cut.lowerBound]) }
        return TextKey.title(short) + "|" + TextKey.author(authors.first ?? "")
    }

    /// `="0441172717"` → `0441172717` (Goodreads wraps ISBN cells in a spreadsheet formula).
    static func unwrapCell(_ raw: String) -> String {
        var text = raw.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("=") {
            text.removeFirst()
            if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
                text = String(text.dropFirst().dropLast())
            }
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// Ten upper-case letters/digits starting with `B0` (Amazon's non-ISBN identifiers), else nil.
    static func normalizedASIN(_ raw: String) -> String? {
        let text = unwrapCell(raw).uppercased()
        guard text.count == 10, text.hasPrefix("B"), text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { return nil }
        return text
    }
}

extension Optional where Wrapped == String {
    /// Trimmed, and nil when empty.
    var nonEmpty: String? {
        guard let s = self?.trimmingCharacters(in: .whitespacesAndNewlines), !s.isEmpty else { return nil }
        return s
    }
}
