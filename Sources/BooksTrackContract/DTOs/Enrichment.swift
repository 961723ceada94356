/// The upstream a client may prefer for enrichment (`prefer_provider`). Strict: the server answers
/// 400 `INVALID_REQUEST` for anything else.
package enum EnrichProvider: String, Codable, Sendable, Hashable, CaseIterable {
    case auto
    case googleBooks = "google_books"
    case openLibrary = "openlibrary"
    case isbndb
}

/// Body of `POST /api/v2/books/enrich` (snake_case keys as documented); `isbn` is accepted for `barcode`.
package struct EnrichRequest: Codable, Sendable, Hashable {
    package var barcode: String
    package var preferProvider: EnrichProvider?
    /// A repeated key within 24 h returns the first result (stand-in).
    package var idempotencyKey: String?

    package init(barcode: String, preferProvider: EnrichProvider? = nil, idempotencyKey: String? = nil) {
        self.barcode = barcode
        self.preferProvider = preferProvider
        self.idempotencyKey = idempotencyKey
    }

    enum CodingKeys: String, CodingKey {
        case barcode, isbn
        case preferProvider = "prefer_provider"
        case idempotencyKey = "idempotency_key"
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let code = try c.decodeLenientString(forKey: .barcode) ?? c.decodeLenientString(forKey: .isbn) else {
            throw DecodingError.keyNotFound(
                CodingKeys.barcode,
                .init(codingPath: c.codingPath, debugDescription: "'barcode' (or 'isbn') is required")
            )
        }
        barcode = code
        preferProvider = try c.decodeIfPresent(EnrichProvider.self, forKey: .preferProvider)
        idempotencyKey = try c.decodeIfPresent(String.self, forKey: .idempotencyKey)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(barcode, forKey: .barcode)
        // Production versions differ in the key they read (v2/enrich.ts: `barcode || isbn`; older
        // ones `isbn` only): send both, every version finds its own.
        try c.encode(barcode, forKey: .isbn)
        try c.encodeIfPresent(preferProvider, forKey: .preferProvider)
        try c.encodeIfPresent(idempotencyKey, forKey: .idempotencyKey)
    }
}

/// `data` of a successful enrichment.
package struct EnrichedBook: Codable, Sendable, Hashable {
    package var isbn: String
    package var title: String
    package var authors: [String]
    package var publisher: String?
    package var publishedDate: String?
    package var description: String?
    package var pageCount: Int?
    package var categories: [String]?
    package var coverUrl: String?
    package var provider: String
    /// ISO-8601.
    package var enrichedAt: String
    /// Whether the book now has a vector (for similarity/semantic search).
    package var vectorized: Bool

    package init(
        isbn: String,
        title: String,
        authors: [String],
        publisher: String? = nil,
        publishedDate: String? = nil,
        description: String? = nil,
        pageCount: Int? = nil,
        categories: [String]? = nil,
        coverUrl: String? = nil,
        provider: String,
        enrichedAt: String,
        vectorized: Bool
    ) {
        self.isbn = isbn
        self.title = title
        self.authors = authors
        self.publisher = publisher
        self.publishedDate = publishedDate
        self.description = description
        self.pageCount = pageCount
        self.categories = categories
        self.coverUrl = coverUrl
        self.provider = provider
        self.enrichedAt = enrichedAt
        self.vectorized = vectorized
    }

    enum CodingKeys: String, CodingKey {
        case isbn, title, authors, author, publisher, publishedDate, description, pageCount, categories, coverUrl
        case provider, enrichedAt, vectorized
    }

    /// Lenient: `author` string for `authors`; missing provider/enrichedAt/vectorized default to ""/""/false.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // The seeds' integration plan's `EnrichedBookDTO {work, edition, authors}` (batch items use it too).
        if !c.contains(.title), let shaped = try? decoder.singleValueContainer().decode(JSONValue.self),
            let record = EnrichedRecord.lenient(shaped, isbn: shaped["edition"]?["isbn"]?.stringValue)
        {
            let edition = record.edition
            isbn = edition.isbn ?? edition.isbns.first ?? ""
            title = edition.title ?? record.work.title
            authors = record.authors.map(\.name)
            publisher = edition.publisher
            publishedDate = edition.publicationDate
            description = record.work.description ?? edition.editionDescription
            pageCount = edition.pageCount
            categories = record.work.subjectTags.isEmpty ? nil : record.work.subjectTags
            coverUrl = edition.coverImageURL ?? record.work.coverImageURL
            provider = shaped["provider"]?.stringValue ?? record.work.primaryProvider ?? ""
            enrichedAt = shaped["enrichedAt"]?.stringValue ?? ""
            vectorized = shaped["vectorized"]?.boolValue ?? false
            return
        }
        isbn = try c.decodeLenientString(forKey: .isbn) ?? ""
        title = try c.decode(String.self, forKey: .title)
        authors = try c.decodeAuthorNames(authors: .authors, author: .author)
        publisher = try c.decodeIfPresent(String.self, forKey: .publisher)
        publishedDate = try c.decodeLenientString(forKey: .publishedDate)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        pageCount = try c.decodeLenientInt(forKey: .pageCount)
        categories = try c.decodeIfPresent([String].self, forKey: .categories)
        coverUrl = try c.decodeIfPresent(String.self, forKey: .coverUrl)
        provider = try c.decodeIfPresent(String.self, forKey: .provider) ?? ""
        enrichedAt = try c.decodeLenientString(forKey: .enrichedAt) ?? ""
        vectorized = try c.decodeIfPresent(Bool.self, forKey: .vectorized) ?? false
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(isbn, forKey: .isbn)
        try c.encode(title, forKey: .title)
        try c.encode(authors, forKey: .authors)
        try c.encodeIfPresent(publisher, forKey: .publisher)
        try c.encodeIfPresent(publishedDate, forKey: .publishedDate)
        try c.encodeIfPresent(description, forKey: .description)
        try c.encodeIfPresent(pageCount, forKey: .pageCount)
        try c.encodeIfPresent(categories, forKey: .categories)
        try c.encodeIfPresent(coverUrl, forKey: .coverUrl)
        try c.encode(provider, forKey: .provider)
        try c.encode(enrichedAt, forKey: .enrichedAt)
        try c.encode(vectorized, forKey: .vectorized)
    }
}
