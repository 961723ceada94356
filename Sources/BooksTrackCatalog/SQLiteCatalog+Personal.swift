import Foundation

/// A book of the reader's library as a source of personal recommendations.
package struct LibrarySeed: Sendable, Hashable {
    /// goodbooks id of the catalog's book.
    package var bookID: Int
    /// How strongly it pulls (> 0) or pushes away (< 0).
    package var weight: Double
    /// What the reader did with it, completing "like TITLE …": "you rated 5", "on your read shelf".
    package var because: String
    package init(bookID: Int, weight: Double, because: String) {
        self.bookID = bookID
        self.weight = weight
        self.because = because
    }
}

/// A book recommended for a library, with the library book it is most like.
package struct PersonalRecommendation: Sendable, Hashable {
    package var book: CatalogBook
    /// Cosine of the book's shelves with the library's profile, 0…1.
    package var score: Double
    /// "shelved fantasy and magic, like The Hobbit you rated 5".
    package var reason: String
    /// The library book it is most like.
    package var like: CatalogBook
}

extension SQLiteCatalog {
    /// Shelves named in a reason.
    static let reasonShelves = 2
    /// Books of one (first) author in a list of personal recommendations: a list of eight Tolkiens
    /// for a reader of The Hobbit tells them nothing new.
    static let perAuthor = 2

    /// Books for a reader whose library holds `seeds` (and the catalog books `excluding`, which are
    /// never recommended, nor their other editions): the profile is the seeds' shelf vectors summed
    /// with their weights (negative weights push away), and books are ranked by cosine with it.
    /// Each says which positively weighted seed it is most like and which shelves they share; at
    /// most `perAuthor` books of one author, and a later book of a series (#2 on) only when the
    /// library holds a book of that series.
    package func personalRecommendations(
        seeds: [LibrarySeed],
        excluding: Set<Int> = [],
        limit: Int
    )
        throws -> [PersonalRecommendation]
    {
        let books = try self.books
        let shelves = try self.shelfVectors
        var profile: [Int32: Float] = [:]
        var sources: [(row: Int, seed: LibrarySeed)] = []
        for seed in seeds {
            guard let row = books.indexOfID[seed.bookID], row < shelves.rows.count else { continue }
            sources.append((row, seed))
            for e in shelves.rows[row] { profile[e.dimension, default: 0] += Float(seed.weight) * e.value }
        }
        let norm = profile.values.reduce(Float(0)) { $0 + $1 * $1 }.squareRoot()
        guard norm > 0 else { return [] }
        let query = profile.filter { $0.value != 0 }.sorted { $0.key < $1.key }
            .map { SparseEntry(dimension: $0.key, value: $0.value / norm) }
        let excludedRows = Set(sources.map(\.row) + excluding.compactMap { books.indexOfID[$0] })
        let startedSeries = Set(excludedRows.compactMap { books.all[$0].series })
        let found = neighbours(
            of: query,
            excludingRows: excludedRows,
            excludingWorks: Set(excludedRows.flatMap { WorkIdentity.keys(books.all[$0]) }),
            limit: min(max(limit, 0), Self.maxLimit),
            perAuthor: Self.perAuthor
        ) { candidate in
            // A later book of a series only when the library has one of that series.
            guard let series = candidate.series, (candidate.seriesNumber ?? 1) > 1 else { return 0 }
            return startedSeries.contains(series) ? 0 : nil
        }
        let liked = sources.filter { $0.seed.weight > 0 }
        return found.compactMap { candidate in
            let vector = shelves.rows[candidate.row]
            guard
                let best = liked.max(by: { a, b in
                    Float(a.seed.weight) * ShelfVectors.dot(shelves.rows[a.row], vector)
                        < Float(b.seed.weight) * ShelfVectors.dot(shelves.rows[b.row], vector)
                })
            else { return nil }
            let like = books.all[best.row]
            let shared = ShelfVectors.sharedShelves(
                shelves.rows[best.row],
                vector,
                names: shelves.names,
                limit: Self.reasonShelves
            )
            return PersonalRecommendation(
                book: books.all[candidate.row],
                score: Double(min(1, max(0, candidate.score))),
                reason: Self.personalReason(shared: shared, like: like, because: best.seed.because),
                like: like
            )
        }
    }

    /// "shelved fantasy and magic, like The Hobbit you rated 5" (the title without its series suffix).
    static func personalReason(shared: [String], like: CatalogBook, because: String) -> String {
        let title = CatalogFieldCleaning.series(inTitle: like.title).base
        let shelves = shared.isEmpty ? "" : "shelved " + shared.joined(separator: " and ") + ", "
        return "\(shelves)like \(title) \(because)"
    }
}
