/// Stand-in body of `GET /v1/search/similar` (bare, snake_case keys as documented; docs/contract.md §4).
package struct SimilarBooksResponse: Codable, Sendable, Hashable {
    /// One similar book.
    package struct Item: Codable, Sendable, Hashable {
        package var isbn: String
        package var title: String
        package var authors: [String]
        /// 0…1, higher is more similar.
        package var similarityScore: Double
        package var coverUrl: String?

        package init(isbn: String, title: String, authors: [String], similarityScore: Double, coverUrl: String? = nil) {
            self.isbn = isbn
            self.title = title
            self.authors = authors
            self.similarityScore = similarityScore
            self.coverUrl = coverUrl
        }

        enum CodingKeys: String, CodingKey {
            case isbn, title, authors
            case similarityScore = "similarity_score"
            case coverUrl = "cover_url"
        }
    }

    package var results: [Item]
    package var sourceISBN: String
    package var total: Int

    package init(results: [Item], sourceISBN: String, total: Int? = nil) {
        self.results = results
        self.sourceISBN = sourceISBN
        self.total = total ?? results.count
    }

    enum CodingKeys: String, CodingKey {
        case results
        case sourceISBN = "source_isbn"
        case total
    }
}

/// Production body of `GET /v1/search/similar` (bare or enveloped):
/// `{query: {isbn, limit}, results: [{isbn, score, title?, author?}], count}`.
package struct ProductionSimilarResponse: Codable, Sendable, Hashable {
    package struct Query: Codable, Sendable, Hashable {
        package var isbn: String
        package var limit: Int?
        package init(isbn: String, limit: Int? = nil) {
            self.isbn = isbn
            self.limit = limit
        }
    }

    package struct Item: Codable, Sendable, Hashable {
        package var isbn: String
        package var score: Double
        package var title: String?
        package var author: String?
        package init(isbn: String, score: Double, title: String? = nil, author: String? = nil) {
            self.isbn = isbn
            self.score = score
            self.title = title
            self.author = author
        }
    }

    package var query: Query
    package var results: [Item]
    package var count: Int

    package init(query: Query, results: [Item], count: Int? = nil) {
        self.query = query
        self.results = results
        self.count = count ?? results.count
    }
}

/// Similar books normalized from either shape (decode it with `ResponseDecoding`).
package struct SimilarResults: Codable, Sendable, Hashable {
    /// One similar book; production may omit the title.
    package struct Item: Codable, Sendable, Hashable {
        package var isbn: String
        package var title: String?
        package var authors: [String]
        package var score: Double
        package var coverURL: String?

        package init(isbn: String, title: String?, authors: [String], score: Double, coverURL: String? = nil) {
            self.isbn = isbn
            self.title = title
            self.authors = authors
            self.score = score
            self.coverURL = coverURL
        }

        enum CodingKeys: String, CodingKey {
            case isbn, title, authors, author, score, similarity_score, relevance_score, coverURL, coverUrl, cover_url
        }

        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            guard let isbn = try c.decodeLenientString(forKey: .isbn) else {
                throw DecodingError.keyNotFound(
                    CodingKeys.isbn,
                    .init(codingPath: c.codingPath, debugDescription: "similar book without isbn")
                )
            }
            self.isbn = isbn
            title = try c.decodeIfPresent(String.self, forKey: .title)
            authors = try c.decodeAuthorNames(authors: .authors, author: .author)
            score =
                try c.decodeLenientDouble(forKey: .similarity_score) ?? c.decodeLenientDouble(forKey: .score)
                ?? c.decodeLenientDouble(forKey: .relevance_score) ?? 0
            coverURL =
                try c.decodeIfPresent(String.self, forKey: .coverURL) ?? c.decodeIfPresent(
                    String.self,
                    forKey: .cover_url
                )
                ?? c.decodeIfPresent(String.self, forKey: .coverUrl)
        }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(isbn, forKey: .isbn)
            try c.encodeIfPresent(title, forKey: .title)
            try c.encode(authors, forKey: .authors)
            try c.encode(score, forKey: .score)
            try c.encodeIfPresent(coverURL, forKey: .coverURL)
        }
    }

    /// The ISBN the results are similar to, when the server echoed it.
    package var sourceISBN: String?
    package var items: [Item]
    package var total: Int

    package init(sourceISBN: String?, items: [Item], total: Int? = nil) {
        self.sourceISBN = sourceISBN
        self.items = items
        self.total = total ?? items.count
    }

    package init(_ r: SimilarBooksResponse) {
        self.init(
            sourceISBN: r.sourceISBN,
            items: r.results.map {
                Item(
                    isbn: $0.isbn,
                    title: $0.title,
                    authors: $0.authors,
                    score: $0.similarityScore,
                    coverURL: $0.coverUrl
                )
            },
            total: r.total
        )
    }

    package init(_ r: ProductionSimilarResponse) {
        self.init(
            sourceISBN: r.query.isbn,
            items: r.results.map {
                Item(isbn: $0.isbn, title: $0.title, authors: $0.author.map { [$0] } ?? [], score: $0.score)
            },
            total: r.count
        )
    }

    enum CodingKeys: String, CodingKey { case results, items, source_isbn, sourceISBN, query, total, count }
    enum QueryKeys: String, CodingKey { case isbn }

    /// Accepts the stand-in shape, production's shape and this type's own encoding.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if c.contains(.items) {
            items = try c.decode([Item].self, forKey: .items)
        } else {
            items = try c.decodeArrayOrEmpty(Item.self, forKey: .results)
        }
        var source = try c.decodeLenientString(forKey: .sourceISBN) ?? c.decodeLenientString(forKey: .source_isbn)
        if source == nil, let q = try? c.nestedContainer(keyedBy: QueryKeys.self, forKey: .query) {
            source = try q.decodeLenientString(forKey: .isbn)
        }
        sourceISBN = source
        total = try c.decodeLenientInt(forKey: .total) ?? c.decodeLenientInt(forKey: .count) ?? items.count
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(sourceISBN, forKey: .sourceISBN)
        try c.encode(items, forKey: .items)
        try c.encode(total, forKey: .total)
    }
}
