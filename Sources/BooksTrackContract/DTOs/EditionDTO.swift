/// An edition (docs/contract.md §4); `editions[i]` belongs to `works[i]`. Decoding is lenient like
/// `WorkDTO` (missing collections empty, `isbndbQuality` 0, `format` `Other`).
package struct EditionDTO: Codable, Sendable, Hashable {
    package var isbns: [String]
    package var format: EditionFormat
    package var amazonASINs: [String]
    package var googleBooksVolumeIDs: [String]
    package var librarythingIDs: [String]
    package var isbndbQuality: Int
    package var isbn: String?
    package var title: String?
    package var publisher: String?
    /// `YYYY-MM-DD` or `YYYY`.
    package var publicationDate: String?
    package var pageCount: Int?
    package var coverImageURL: String?
    package var editionTitle: String?
    package var editionDescription: String?
    package var language: String?
    /// Author names on the edition, when the server sends them there.
    package var authors: [String]?

    package init(
        isbns: [String] = [],
        format: EditionFormat = .other,
        amazonASINs: [String] = [],
        googleBooksVolumeIDs: [String] = [],
        librarythingIDs: [String] = [],
        isbndbQuality: Int = 0,
        isbn: String? = nil,
        title: String? = nil,
        publisher: String? = nil,
        publicationDate: String? = nil,
        pageCount: Int? = nil,
        coverImageURL: String? = nil,
        editionTitle: String? = nil,
        editionDescription: String? = nil,
        language: String? = nil,
        authors: [String]? = nil
    ) {
        self.isbns = isbns
        self.format = format
        self.amazonASINs = amazonASINs
        self.googleBooksVolumeIDs = googleBooksVolumeIDs
        self.librarythingIDs = librarythingIDs
        self.isbndbQuality = isbndbQuality
        self.isbn = isbn
        self.title = title
        self.publisher = publisher
        self.publicationDate = publicationDate
        self.pageCount = pageCount
        self.coverImageURL = coverImageURL
        self.editionTitle = editionTitle
        self.editionDescription = editionDescription
        self.language = language
        self.authors = authors
    }

    enum CodingKeys: String, CodingKey {
        case isbns, format, amazonASINs, googleBooksVolumeIDs, librarythingIDs, isbndbQuality, isbn, title
        case publisher, publicationDate, pageCount, coverImageURL, editionTitle, editionDescription, language
        case authors
    }

    package init(from decoder: any Decoder) throws { try self.init(decodingFieldsFrom: decoder) }

    init<Fields: KeyedFields<CodingKeys>>(fields c: Fields) throws {
        isbns = try c.decodeLenientStrings(forKey: .isbns)
        format = try c.decodeIfPresent(EditionFormat.self, forKey: .format) ?? .other
        amazonASINs = try c.decodeLenientStrings(forKey: .amazonASINs)
        googleBooksVolumeIDs = try c.decodeLenientStrings(forKey: .googleBooksVolumeIDs)
        librarythingIDs = try c.decodeLenientStrings(forKey: .librarythingIDs)
        isbndbQuality = try c.decodeLenientInt(forKey: .isbndbQuality) ?? 0
        isbn = try c.decodeLenientString(forKey: .isbn)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        publisher = try c.decodeIfPresent(String.self, forKey: .publisher)
        publicationDate = try c.decodeLenientString(forKey: .publicationDate)
        pageCount = try c.decodeLenientInt(forKey: .pageCount)
        coverImageURL = try c.decodeIfPresent(String.self, forKey: .coverImageURL)
        editionTitle = try c.decodeIfPresent(String.self, forKey: .editionTitle)
        editionDescription = try c.decodeIfPresent(String.self, forKey: .editionDescription)
        language = try c.decodeIfPresent(String.self, forKey: .language)
        let names = c.contains(.authors) ? (try? c.decodeAuthorNames(authors: .authors, author: .authors)) : nil
        authors = names.flatMap { $0.isEmpty ? nil : $0 }
    }
}

extension EditionDTO: FieldsDecodable {}
