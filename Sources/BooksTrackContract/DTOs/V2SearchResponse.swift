/// `data` of `GET /api/v2/search` (docs/contract.md §4).
///
/// Decoding also accepts `count` for `totalCount` and a missing `query` echo. (Production returned an
/// empty `results` for semantic mode: that is "no matches", not an error.)
package struct V2SearchResponse: Codable, Sendable, Hashable {
    /// The echoed request.
    package struct Query: Codable, Sendable, Hashable {
        package var q: String
        package var mode: SearchMode
        package var limit: Int
        package var offset: Int

        package init(q: String, mode: SearchMode, limit: Int, offset: Int = 0) {
            self.q = q
            self.mode = mode
            self.limit = limit
            self.offset = offset
        }

        enum CodingKeys: String, CodingKey { case q, mode, limit, offset }

        /// Lenient: an unknown mode reads as `text`, missing numbers as 0.
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            q = try c.decodeLenientString(forKey: .q) ?? ""
            mode = (try? c.decodeIfPresent(String.self, forKey: .mode)).flatMap { $0.flatMap(SearchMode.init) } ?? .text
            limit = try c.decodeLenientInt(forKey: .limit) ?? 0
            offset = try c.decodeLenientInt(forKey: .offset) ?? 0
        }
    }

    package var query: Query
    package var results: [SearchHit]
    package var totalCount: Int
    /// What the server searched instead when `q` matched nothing (text mode, its spelling
    /// corrected); absent otherwise and from servers that do not correct.
    package var correctedQuery: String?

    package init(query: Query, results: [SearchHit], totalCount: Int? = nil, correctedQuery: String? = nil) {
        self.query = query
        self.results = results
        self.totalCount = totalCount ?? results.count
        self.correctedQuery = correctedQuery
    }

    enum CodingKeys: String, CodingKey { case query, results, totalCount, count, correctedQuery }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        results = try c.decodeArrayOrEmpty(SearchHit.self, forKey: .results)
        query =
            try c.decodeIfPresent(Query.self, forKey: .query)
            ?? Query(q: "", mode: .text, limit: results.count, offset: 0)
        totalCount =
            try c.decodeLenientInt(forKey: .totalCount) ?? c.decodeLenientInt(forKey: .count) ?? results.count
        correctedQuery = c.decodeCorrectedQuery(forKey: .correctedQuery)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(query, forKey: .query)
        try c.encode(results, forKey: .results)
        try c.encode(totalCount, forKey: .totalCount)
        try c.encodeIfPresent(correctedQuery, forKey: .correctedQuery)
    }
}

/// One v2 search hit. `score` is in 0…1, higher is better.
///
/// Decoding also accepts `author` (string) for `authors`, `relevance_score`/`similarity_score`
/// for `score` (missing score → 0), `cover_url` for `coverUrl`, `isbn13` for `isbn`.
package struct SearchHit: Codable, Sendable, Hashable {
    package var isbn: String?
    package var title: String
    package var authors: [String]
    package var coverUrl: String?
    package var publishedYear: Int?
    package var score: Double

    package init(
        isbn: String? = nil,
        title: String,
        authors: [String],
        coverUrl: String? = nil,
        publishedYear: Int? = nil,
        score: Double
    ) {
        self.isbn = isbn
        self.title = title
        self.authors = authors
        self.coverUrl = coverUrl
        self.publishedYear = publishedYear
        self.score = score
    }

    enum CodingKeys: String, CodingKey {
        case isbn, isbn13, title, authors, author, coverUrl, cover_url, publishedYear, score, relevance_score
        case similarity_score
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        isbn = try c.decodeLenientString(forKey: .isbn) ?? c.decodeLenientString(forKey: .isbn13)
        title = try c.decode(String.self, forKey: .title)
        authors = try c.decodeAuthorNames(authors: .authors, author: .author)
        coverUrl =
            try c.decodeIfPresent(String.self, forKey: .coverUrl) ?? c.decodeIfPresent(String.self, forKey: .cover_url)
        publishedYear = try c.decodeLenientInt(forKey: .publishedYear)
        score =
            try c.decodeLenientDouble(forKey: .score) ?? c.decodeLenientDouble(forKey: .relevance_score)
            ?? c.decodeLenientDouble(forKey: .similarity_score) ?? 0
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(isbn, forKey: .isbn)
        try c.encode(title, forKey: .title)
        try c.encode(authors, forKey: .authors)
        try c.encodeIfPresent(coverUrl, forKey: .coverUrl)
        try c.encodeIfPresent(publishedYear, forKey: .publishedYear)
        try c.encode(score, forKey: .score)
    }
}

extension SearchResults {
    /// Normalizes a v2 search response.
    package init(_ response: V2SearchResponse) {
        self.init(
            items: response.results.map {
                SearchResultItem(
                    title: $0.title,
                    authors: $0.authors,
                    isbn: $0.isbn,
                    isbns: $0.isbn.map { [$0] } ?? [],
                    year: $0.publishedYear,
                    coverURL: $0.coverUrl,
                    score: $0.score
                )
            },
            totalResults: response.totalCount,
            correctedQuery: response.correctedQuery
        )
    }
}
