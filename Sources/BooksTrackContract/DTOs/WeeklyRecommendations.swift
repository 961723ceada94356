/// Stand-in body of `GET /api/v2/recommendations/weekly` (bare, snake_case as documented).
package struct WeeklyRecommendationsResponse: Codable, Sendable, Hashable {
    package struct Item: Codable, Sendable, Hashable {
        package var isbn: String
        package var title: String
        package var authors: [String]
        package var coverUrl: String?
        package var reason: String

        package init(isbn: String, title: String, authors: [String], coverUrl: String? = nil, reason: String) {
            self.isbn = isbn
            self.title = title
            self.authors = authors
            self.coverUrl = coverUrl
            self.reason = reason
        }

        enum CodingKeys: String, CodingKey {
            case isbn, title, authors, reason
            case coverUrl = "cover_url"
        }
    }

    /// `YYYY-MM-DD`, a Monday.
    package var weekOf: String
    package var books: [Item]
    /// ISO-8601.
    package var generatedAt: String
    /// ISO-8601.
    package var nextRefresh: String

    package init(weekOf: String, books: [Item], generatedAt: String, nextRefresh: String) {
        self.weekOf = weekOf
        self.books = books
        self.generatedAt = generatedAt
        self.nextRefresh = nextRefresh
    }

    enum CodingKeys: String, CodingKey {
        case books
        case weekOf = "week_of"
        case generatedAt = "generated_at"
        case nextRefresh = "next_refresh"
    }
}

/// Production `data` of the weekly recommendations (enveloped, always 200).
package struct ProductionWeeklyRecommendations: Codable, Sendable, Hashable {
    package struct Item: Codable, Sendable, Hashable {
        package var isbn: String
        package var title: String
        package var author: String
        package var coverUrl: String?
        package var reason: String
        package var score: Double?

        package init(
            isbn: String,
            title: String,
            author: String,
            coverUrl: String? = nil,
            reason: String,
            score: Double? = nil
        ) {
            self.isbn = isbn
            self.title = title
            self.author = author
            self.coverUrl = coverUrl
            self.reason = reason
            self.score = score
        }
    }

    package var weekOf: String
    package var recommendations: [Item]
    package var count: Int
    package var totalAvailable: Int
    /// Present with an empty list when none are generated yet.
    package var message: String?

    package init(
        weekOf: String,
        recommendations: [Item],
        count: Int? = nil,
        totalAvailable: Int? = nil,
        message: String? = nil
    ) {
        self.weekOf = weekOf
        self.recommendations = recommendations
        self.count = count ?? recommendations.count
        self.totalAvailable = totalAvailable ?? recommendations.count
        self.message = message
    }
}

/// Weekly recommendations normalized from either shape (decode with `ResponseDecoding`).
package struct WeeklyRecommendations: Codable, Sendable, Hashable {
    package struct Item: Codable, Sendable, Hashable {
        package var isbn: String
        package var title: String
        package var authors: [String]
        package var coverURL: String?
        package var reason: String
        package var score: Double?

        package init(
            isbn: String,
            title: String,
            authors: [String],
            coverURL: String? = nil,
            reason: String,
            score: Double? = nil
        ) {
            self.isbn = isbn
            self.title = title
            self.authors = authors
            self.coverURL = coverURL
            self.reason = reason
            self.score = score
        }

        enum CodingKeys: String, CodingKey {
            case isbn, title, authors, author, coverURL, coverUrl, cover_url, reason, score
        }

        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            isbn = try c.decodeLenientString(forKey: .isbn) ?? ""
            title = try c.decode(String.self, forKey: .title)
            authors = try c.decodeAuthorNames(authors: .authors, author: .author)
            coverURL =
                try c.decodeIfPresent(String.self, forKey: .coverURL) ?? c.decodeIfPresent(
                    String.self,
                    forKey: .coverUrl
                )
                ?? c.decodeIfPresent(String.self, forKey: .cover_url)
            reason = try c.decodeIfPresent(String.self, forKey: .reason) ?? ""
            score = try c.decodeLenientDouble(forKey: .score)
        }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(isbn, forKey: .isbn)
            try c.encode(title, forKey: .title)
            try c.encode(authors, forKey: .authors)
            try c.encodeIfPresent(coverURL, forKey: .coverURL)
            try c.encode(reason, forKey: .reason)
            try c.encodeIfPresent(score, forKey: .score)
        }
    }

    /// `YYYY-MM-DD`.
    package var weekOf: String
    package var items: [Item]
    package var generatedAt: String?
    package var nextRefresh: String?
    package var totalAvailable: Int?
    /// Production's note when none are generated yet.
    package var message: String?

    package init(
        weekOf: String,
        items: [Item],
        generatedAt: String? = nil,
        nextRefresh: String? = nil,
        totalAvailable: Int? = nil,
        message: String? = nil
    ) {
        self.weekOf = weekOf
        self.items = items
        self.generatedAt = generatedAt
        self.nextRefresh = nextRefresh
        self.totalAvailable = totalAvailable
        self.message = message
    }

    enum CodingKeys: String, CodingKey {
        case weekOf, week_of, items, books, recommendations, generatedAt, generated_at, nextRefresh, next_refresh
        case totalAvailable, message
    }

    /// Accepts the stand-in shape, production's shape and this type's own encoding.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        weekOf = try c.decodeLenientString(forKey: .weekOf) ?? c.decodeLenientString(forKey: .week_of) ?? ""
        items =
            try c.decodeIfPresent([Item].self, forKey: .items) ?? c.decodeIfPresent([Item].self, forKey: .books)
            ?? c.decodeArrayOrEmpty(Item.self, forKey: .recommendations)
        generatedAt = try c.decodeLenientString(forKey: .generatedAt) ?? c.decodeLenientString(forKey: .generated_at)
        nextRefresh = try c.decodeLenientString(forKey: .nextRefresh) ?? c.decodeLenientString(forKey: .next_refresh)
        totalAvailable = try c.decodeLenientInt(forKey: .totalAvailable)
        message = try c.decodeIfPresent(String.self, forKey: .message)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(weekOf, forKey: .weekOf)
        try c.encode(items, forKey: .items)
        try c.encodeIfPresent(generatedAt, forKey: .generatedAt)
        try c.encodeIfPresent(nextRefresh, forKey: .nextRefresh)
        try c.encodeIfPresent(totalAvailable, forKey: .totalAvailable)
        try c.encodeIfPresent(message, forKey: .message)
    }

    package init(_ r: WeeklyRecommendationsResponse) {
        self.init(
            weekOf: r.weekOf,
            items: r.books.map {
                Item(isbn: $0.isbn, title: $0.title, authors: $0.authors, coverURL: $0.coverUrl, reason: $0.reason)
            },
            generatedAt: r.generatedAt,
            nextRefresh: r.nextRefresh
        )
    }

    package init(_ p: ProductionWeeklyRecommendations) {
        self.init(
            weekOf: p.weekOf,
            items: p.recommendations.map {
                Item(
                    isbn: $0.isbn,
                    title: $0.title,
                    authors: [$0.author],
                    coverURL: $0.coverUrl,
                    reason: $0.reason,
                    score: $0.score
                )
            },
            totalAvailable: p.totalAvailable,
            message: p.message
        )
    }
}
