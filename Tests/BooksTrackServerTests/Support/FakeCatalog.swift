import BooksTrackCatalog
import BooksTrackServer
import Foundation

/// A tiny in-memory catalog for fast route tests (the live catalog is tested in RealCatalogTests).
struct FakeCatalog: CatalogQuerying {
    var books: [CatalogBook]
    /// ISBN-13s that have no vector (similar → nil).
    var withoutVectors: Set<String> = []
    /// When false, weekly recommendations are empty (404).
    var hasRecommendations = true
    /// Set: semantic and hybrid cannot run (as a real catalog without the sentence model).
    var semanticUnavailable: SemanticUnavailable?

    init(books: [CatalogBook] = FakeCatalog.sampleBooks) { self.books = books }

    static func book(
        _ id: Int,
        _ isbn13: String,
        _ isbn10: String,
        _ title: String,
        _ authors: [String],
        year: Int?
    ) -> CatalogBook {
        CatalogBook(
            id: id,
            goodreadsBookID: 1000 + id,
            goodreadsWorkID: 2000 + id,
            isbn10: isbn10,
            isbn13: isbn13,
            title: title,
            originalTitle: nil,
            series: nil,
            seriesNumber: nil,
            authors: authors,
            year: year,
            language: "en",
            averageRating: 4.0,
            ratingsCount: 1000 * (10 - id),
            imageURL: "https://images.example/\(id).jpg",
            smallImageURL: nil
        )
    }

    static let sampleBooks: [CatalogBook] = [
        book(
            1,
            "9780439023481",
            "0439023483",
            "The Hunger Games (The Hunger Games, #1)",
            ["Suzanne Collins"],
            year: 2008
        ),
        book(
            2,
            "9780439554930",
            "0439554934",
            "Harry Potter and the Sorcerer's Stone (Harry Potter, #1)",
            ["J.K. Rowling", "Mary GrandPré"],
            year: 1997
        ),
        book(3, "9780316015844", "0316015849", "Twilight (Twilight, #1)", ["Stephenie Meyer"], year: 2005),
        book(4, "9780061120084", "0061120081", "To Kill a Mockingbird", ["Harper Lee"], year: 1960),
        book(5, "9780743273565", "0743273567", "The Great Gatsby", ["F. Scott Fitzgerald"], year: 1925),
    ]

    var count: Int { books.count }

    func book(isbn13: String) throws -> CatalogBook? { books.first { $0.isbn13 == isbn13 } }
    func book(id: Int) throws -> CatalogBook? { books.first { $0.id == id } }

    func searchTitle(_ query: String, limit: Int) throws -> CatalogPage {
        let matches = books.filter { $0.title.localizedCaseInsensitiveContains(query) }
        return CatalogPage(books: Array(matches.prefix(limit)), total: matches.count)
    }

    func searchAuthor(_ name: String, limit: Int) throws -> CatalogPage {
        let matches = books.filter { $0.authors.contains { $0.localizedCaseInsensitiveContains(name) } }
        return CatalogPage(books: Array(matches.prefix(limit)), total: matches.count)
    }

    func searchAdvanced(title: String?, author: String?, limit: Int) throws -> CatalogPage {
        let matches = books.filter { book in
            (title.map { book.title.localizedCaseInsensitiveContains($0) } ?? true)
                && (author.map { a in book.authors.contains { $0.localizedCaseInsensitiveContains(a) } } ?? true)
        }
        return CatalogPage(books: Array(matches.prefix(limit)), total: matches.count)
    }

    var semanticUnavailableReason: String? { semanticUnavailable?.description }

    func semantic(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook] {
        if let semanticUnavailable { throw semanticUnavailable }
        return books.enumerated().dropFirst(offset).prefix(limit).map {
            ScoredBook(book: $1, score: 0.9 - Double($0) * 0.1)
        }
    }

    func hybrid(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook] {
        try semantic(query, limit: limit, offset: offset)
    }

    func similar(isbn13: String, limit: Int) throws -> [ScoredBook]? {
        guard books.contains(where: { $0.isbn13 == isbn13 }), !withoutVectors.contains(isbn13) else { return nil }
        return books.filter { $0.isbn13 != isbn13 }.prefix(limit).enumerated().map {
            ScoredBook(book: $1, score: 0.8 - Double($0) * 0.1)
        }
    }

    func weeklyRecommendations(weekOf: Date, limit: Int) throws -> [Recommendation] {
        guard hasRecommendations else { return [] }
        return books.prefix(limit).map { Recommendation(book: $0, reason: "Loved by \($0.ratingsCount) readers") }
    }
}
