import Foundation

/// One cleaned row of the goodbooks-10k catalog (a Goodreads "work" with its best edition).
package struct CatalogBook: Sendable, Hashable, Codable {
    /// goodbooks `book_id` (1…10000), stable across rebuilds.
    package var id: Int
    package var goodreadsBookID: Int
    package var goodreadsWorkID: Int
    /// Zero-padded ISBN-10, when the source row had one.
    package var isbn10: String?
    /// Derived from `isbn10` (never from the source's float column).
    package var isbn13: String?
    /// Display title as Goodreads shows it, series included: "The Hunger Games (The Hunger Games, #1)".
    package var title: String
    /// Original title when it differs from the display title.
    package var originalTitle: String?
    /// Series name and number parsed out of the title: ("The Hunger Games", 1).
    package var series: String?
    package var seriesNumber: Double?
    package var authors: [String]
    /// Original publication year (negative for BCE works).
    package var year: Int?
    /// ISO 639-1 where known ("en"), else the source code.
    package var language: String?
    package var averageRating: Double
    package var ratingsCount: Int
    package var imageURL: String?
    package var smallImageURL: String?
    /// The book's strongest reader shelves, heaviest first (at most `SQLiteCatalog.shownShelves`;
    /// empty when the catalog was built without shelves).
    package var shelves: [String]

    package init(
        id: Int,
        goodreadsBookID: Int,
        goodreadsWorkID: Int,
        isbn10: String?,
        isbn13: String?,
        title: String,
        originalTitle: String?,
        series: String?,
        seriesNumber: Double?,
        authors: [String],
        year: Int?,
        language: String?,
        averageRating: Double,
        ratingsCount: Int,
        imageURL: String?,
        smallImageURL: String?,
        shelves: [String] = []
    ) {
        self.id = id
        self.goodreadsBookID = goodreadsBookID
        self.goodreadsWorkID = goodreadsWorkID
        self.isbn10 = isbn10
        self.isbn13 = isbn13
        self.title = title
        self.originalTitle = originalTitle
        self.series = series
        self.seriesNumber = seriesNumber
        self.authors = authors
        self.year = year
        self.language = language
        self.averageRating = averageRating
        self.ratingsCount = ratingsCount
        self.imageURL = imageURL
        self.smallImageURL = smallImageURL
        self.shelves = shelves
    }
}

/// A scored result of a ranked search (score in 0…1, higher is better).
package struct ScoredBook: Sendable, Hashable {
    package var book: CatalogBook
    package var score: Double
    package init(book: CatalogBook, score: Double) {
        self.book = book
        self.score = score
    }
}

/// A page of results plus the total number of matches.
package struct CatalogPage: Sendable, Hashable {
    package var books: [CatalogBook]
    package var total: Int
    /// What was searched instead when the query as given matched nothing (its words corrected
    /// for spelling, in the index's form: "tolkien"); nil for the query's own matches.
    package var correctedQuery: String?
    package init(books: [CatalogBook], total: Int, correctedQuery: String? = nil) {
        self.books = books
        self.total = total
        self.correctedQuery = correctedQuery
    }
}

/// A recommendation with a reason derived from the data.
package struct Recommendation: Sendable, Hashable {
    package var book: CatalogBook
    package var reason: String
    package init(book: CatalogBook, reason: String) {
        self.book = book
        self.reason = reason
    }
}

/// What the server asks of the catalog. Implemented by `SQLiteCatalog`; fakes in tests.
/// All methods are synchronous and thread-safe (the catalog is read-only once built).
package protocol CatalogQuerying: Sendable {
    /// Exact lookup by normalized ISBN-13 (digits only). ISBN-10s are converted by the caller.
    func book(isbn13: String) throws -> CatalogBook?
    /// Lookup by goodbooks id.
    func book(id: Int) throws -> CatalogBook?
    /// Free-form full-text (FTS5) search: every word in the title, original title, series or
    /// authors, best matches first; a query that matches nothing is corrected for spelling
    /// (`CatalogPage.correctedQuery`).
    func searchTitle(_ query: String, limit: Int) throws -> CatalogPage
    /// Full-text author search, most-rated first; a name that matches nothing is corrected for spelling.
    func searchAuthor(_ name: String, limit: Int) throws -> CatalogPage
    /// Title and/or author (at least one non-nil), both must match when both are given.
    func searchAdvanced(title: String?, author: String?, limit: Int) throws -> CatalogPage
    /// Books nearest in meaning to `query` (natural language), after `offset`.
    func semantic(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook]
    /// Blend of full-text rank and semantic similarity.
    func hybrid(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook]
    /// Nearest neighbours of the book with this ISBN-13, the book itself excluded.
    /// `nil` when the ISBN is not in the catalog (or has no vector).
    func similar(isbn13: String, limit: Int) throws -> [ScoredBook]?
    /// The weekly selection for the ISO week containing `weekOf` (stable within a week).
    func weeklyRecommendations(weekOf: Date, limit: Int) throws -> [Recommendation]
    /// Number of books in the catalog.
    var count: Int { get }
    /// Why `semantic` and `hybrid` cannot run on this catalog (one sentence naming the fix), or nil.
    var semanticUnavailableReason: String? { get }
}

extension CatalogQuerying {
    package var semanticUnavailableReason: String? { nil }
}
