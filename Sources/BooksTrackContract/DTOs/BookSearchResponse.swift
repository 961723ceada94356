/// `data` of the `/v1/search/*` routes (docs/contract.md §4). `editions[i]` belongs to `works[i]`.
/// No match is 200 with empty arrays.
///
/// Author attribution: production sends `authors` as the de-duplicated set of all works' authors,
/// with no link to a work (`WorkDTO.contributors` lists *providers*, not people). `SearchResults`
/// therefore attributes `authors[i]` to `works[i]` when the counts are equal, all authors to a
/// single work, and none otherwise. The stand-in sends one `AuthorDTO` per work (`authors[i]` is
/// the primary author of `works[i]`, repeated when shared) so that attribution is exact.
package struct BookSearchResponse: Codable, Sendable, Hashable {
    package var works: [WorkDTO]
    package var editions: [EditionDTO]
    package var authors: [AuthorDTO]
    package var resultCount: Int
    package var totalResults: Int?
    /// What the server searched instead when the query as given matched nothing (its spelling
    /// corrected: "tolkien" for "tolkein"); absent for the query's own matches and from servers
    /// that do not correct.
    package var correctedQuery: String?

    package init(
        works: [WorkDTO],
        editions: [EditionDTO],
        authors: [AuthorDTO],
        resultCount: Int? = nil,
        totalResults: Int? = nil,
        correctedQuery: String? = nil
    ) {
        self.works = works
        self.editions = editions
        self.authors = authors
        self.resultCount = resultCount ?? works.count
        self.totalResults = totalResults
        self.correctedQuery = correctedQuery
    }

    /// The empty result (no match).
    package static let empty = BookSearchResponse(works: [], editions: [], authors: [], resultCount: 0)

    enum CodingKeys: String, CodingKey { case works, editions, authors, resultCount, totalResults, correctedQuery }

    package init(from decoder: any Decoder) throws { try self.init(decodingFieldsFrom: decoder) }

    init<Fields: KeyedFields<CodingKeys>>(fields c: Fields) throws {
        works = try c.decodeArrayOrEmpty(WorkDTO.self, forKey: .works)
        editions = try c.decodeArrayOrEmpty(EditionDTO.self, forKey: .editions)
        authors = try c.decodeArrayOrEmpty(AuthorDTO.self, forKey: .authors)
        resultCount = try c.decodeLenientInt(forKey: .resultCount) ?? works.count
        totalResults = try c.decodeLenientInt(forKey: .totalResults)
        correctedQuery = c.decodeCorrectedQuery(forKey: .correctedQuery)
    }
}

/// The flat "Book" of the v3.x documents, also the shape of import results' `books`.
package struct Book: Codable, Sendable, Hashable {
    package var isbn: String
    package var isbn13: String?
    package var title: String
    package var authors: [String]
    package var publisher: String?
    package var publishedDate: String?
    package var description: String?
    package var pageCount: Int?
    package var categories: [String]?
    package var language: String?
    package var coverUrl: String?

    package init(
        isbn: String,
        isbn13: String? = nil,
        title: String,
        authors: [String],
        publisher: String? = nil,
        publishedDate: String? = nil,
        description: String? = nil,
        pageCount: Int? = nil,
        categories: [String]? = nil,
        language: String? = nil,
        coverUrl: String? = nil
    ) {
        self.isbn = isbn
        self.isbn13 = isbn13
        self.title = title
        self.authors = authors
        self.publisher = publisher
        self.publishedDate = publishedDate
        self.description = description
        self.pageCount = pageCount
        self.categories = categories
        self.language = language
        self.coverUrl = coverUrl
    }

    enum CodingKeys: String, CodingKey {
        case isbn, isbn13, title, authors, author, publisher, publishedDate, description, pageCount, categories
        case language, coverUrl
    }

    /// Lenient: `isbn` may be missing when `isbn13` is present, `author` (string) is accepted for
    /// `authors`, numbers may be strings.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        isbn13 = try c.decodeLenientString(forKey: .isbn13)
        guard let isbn = try c.decodeLenientString(forKey: .isbn) ?? isbn13 else {
            throw DecodingError.keyNotFound(
                CodingKeys.isbn,
                .init(codingPath: c.codingPath, debugDescription: "a book needs 'isbn' or 'isbn13'")
            )
        }
        self.isbn = isbn
        title = try c.decode(String.self, forKey: .title)
        authors = try c.decodeAuthorNames(authors: .authors, author: .author)
        publisher = try c.decodeIfPresent(String.self, forKey: .publisher)
        publishedDate = try c.decodeLenientString(forKey: .publishedDate)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        pageCount = try c.decodeLenientInt(forKey: .pageCount)
        categories = try c.decodeIfPresent([String].self, forKey: .categories)
        language = try c.decodeIfPresent(String.self, forKey: .language)
        coverUrl = try c.decodeIfPresent(String.self, forKey: .coverUrl)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(isbn, forKey: .isbn)
        try c.encodeIfPresent(isbn13, forKey: .isbn13)
        try c.encode(title, forKey: .title)
        try c.encode(authors, forKey: .authors)
        try c.encodeIfPresent(publisher, forKey: .publisher)
        try c.encodeIfPresent(publishedDate, forKey: .publishedDate)
        try c.encodeIfPresent(description, forKey: .description)
        try c.encodeIfPresent(pageCount, forKey: .pageCount)
        try c.encodeIfPresent(categories, forKey: .categories)
        try c.encodeIfPresent(language, forKey: .language)
        try c.encodeIfPresent(coverUrl, forKey: .coverUrl)
    }
}

/// `{books: [Book], totalResults, query}` of the v3.x documents.
package struct LegacyBookSearchResponse: Codable, Sendable, Hashable {
    package var books: [Book]
    package var totalResults: Int
    package var query: String?

    package init(books: [Book], totalResults: Int? = nil, query: String? = nil) {
        self.books = books
        self.totalResults = totalResults ?? books.count
        self.query = query
    }

    enum CodingKeys: String, CodingKey { case books, totalResults, query }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        books = try c.decode([Book].self, forKey: .books)
        totalResults = try c.decodeLenientInt(forKey: .totalResults) ?? books.count
        query = try? c.decodeLenientString(forKey: .query)
    }
}

extension KeyedFields {
    /// Author names from `authors` (an array of strings or `{name}` objects, or a single string) or
    /// from a single `author` string; absent → empty. A string is kept whole (never split on commas:
    /// "Smith, John" is one name).
    func decodeAuthorNames(authors: Key, author: Key) throws -> [String] {
        if let value = try decodeIfPresent(JSONValue.self, forKey: authors) {
            switch value {
            case .array(let list):
                return list.compactMap { $0.stringValue ?? $0["name"]?.stringValue }
            case .string(let one):
                return one.isEmpty ? [] : [one]
            case .null:
                break
            default:
                throw DecodingError.typeMismatch(
                    [String].self,
                    .init(codingPath: codingPath + [authors], debugDescription: "expected a list of author names")
                )
            }
        }
        if let one = try decodeLenientString(forKey: author), !one.isEmpty { return [one] }
        return []
    }
}

extension BookSearchResponse: FieldsDecodable {}
