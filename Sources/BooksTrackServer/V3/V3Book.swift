import BooksTrackCatalog
import BooksTrackContract
import Foundation

/// The flat v3 **Book** (bendv3 `packages/schemas/src/book.ts`; `src/api-v3/index.ts` @ e40ae5d):
/// `{isbn (13 digits), title, authors, publisher?, publishedDate?, description?, pageCount?, categories?,
/// language, coverUrl?, thumbnailUrl?, workKey?, provider: "alexandria", quality: 95}`; enriched books add
/// `vectorized: false` (`enrich.ts`).
///
/// Authors are plain strings in the contract dialect and `{name, key}` objects in the production
/// dialect (the schema accepts both), so clients are tested on both forms.
struct V3Book: Sendable, Hashable {
    var isbn: String
    var title: String
    var authors: [String]
    var publisher: String?
    var publishedDate: String?
    var pageCount: Int?
    var language: String?
    var coverUrl: String?
    var thumbnailUrl: String?
    var workKey: String?

    init(catalog book: CatalogBook) {
        isbn = book.isbn13 ?? book.isbn10.map(V3Wire.isbn13) ?? ""
        title = book.title
        authors = book.authors
        publishedDate = book.publicationYearString
        language = book.language
        coverUrl = book.imageURL
        thumbnailUrl = book.smallImageURL
        workKey = "gr-work-\(book.goodreadsWorkID)"
    }

    /// A book an import created (the CSV row's publisher and page count kept).
    init(imported book: Book) {
        isbn = book.isbn13 ?? (V3Wire.isISBNPattern(book.isbn) ? V3Wire.isbn13(book.isbn) : book.isbn)
        title = book.title
        authors = book.authors
        publisher = book.publisher
        publishedDate = book.publishedDate
        pageCount = book.pageCount
        language = book.language
        coverUrl = book.coverUrl
    }

    /// The wire JSON in `dialect`; `enriched` adds `vectorized: false`.
    func json(_ dialect: ServerDialect, enriched: Bool = false) -> JSONValue {
        var object: [String: JSONValue] = [
            "isbn": .string(isbn),
            "title": .string(title),
            "authors": .array(authors.map { Self.author($0, dialect) }),
            "language": .string(language ?? "en"),
            "provider": "alexandria",
            "quality": 95,
        ]
        let optional: [(String, String?)] = [
            ("publisher", publisher), ("publishedDate", publishedDate), ("coverUrl", coverUrl),
            ("thumbnailUrl", thumbnailUrl), ("workKey", workKey),
        ]
        for (key, value) in optional { if let value { object[key] = .string(value) } }
        if let pageCount { object["pageCount"] = .number(Double(pageCount)) }
        if enriched { object["vectorized"] = false }
        return .object(object)
    }

    /// A name as a string (contract) or `{name, key}` (production; the key is made up from the name,
    /// in OpenLibrary's `/authors/…` form).
    static func author(_ name: String, _ dialect: ServerDialect) -> JSONValue {
        guard dialect == .production else { return .string(name) }
        let slug = name.lowercased().unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? String($0) : "-" }
            .joined()
        return ["name": .string(name), "key": .string("/authors/local-\(slug)")]
    }
}
