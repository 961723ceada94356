import BooksTrackContract
import BooksTrackEmbedding
import BooksTrackSupport
import Foundation

extension SQLiteCatalog {
    /// The text each book is embedded from: "TITLE by AUTHORS. Shelves: s1, s2, …" with its
    /// `bookTextShelves` strongest reader shelves, dashes read as spaces (`science-fiction` →
    /// "science fiction"). Written into the vectors' stamp, so a changed recipe shows.
    static let bookTextShelves = 20
    package static let bookTextRecipe =
        "TITLE by AUTHORS. Shelves: the book's 20 strongest reader shelves, dashes as spaces"

    package static func bookText(title: String, authors: [String], shelves: [String]) -> String {
        var text = title
        if !authors.isEmpty { text += " by " + authors.joined(separator: ", ") }
        text += "."
        let named = shelves.prefix(bookTextShelves).map { $0.replacingOccurrences(of: "-", with: " ") }
        if !named.isEmpty { text += " Shelves: " + named.joined(separator: ", ") + "." }
        return text
    }

    /// Every book's embedding text, in the order of `books.all` (for `scripts/build-book-vectors`).
    package func bookTexts() throws -> [(id: Int, text: String)] {
        let books = try self.books
        let shelves = try shelfVectors
        return books.all.enumerated().map { row, book in
            let names = shelves.rows[row].compactMap {
                Int($0.dimension) < shelves.names.count ? shelves.names[Int($0.dimension)] : nil
            }
            return (book.id, Self.bookText(title: book.title, authors: book.authors, shelves: names))
        }
    }

    /// The content hash of the resources this catalog was built from (the content key's last part).
    package var resourceHash: String { semanticIndex.catalogHash }

    package var semanticUnavailableReason: String? { semanticUnavailable?.description }

    /// Why semantic search cannot run here, or nil. Cheap: two `stat`s and the vectors' stamp.
    package var semanticUnavailable: SemanticUnavailable? { semanticIndex.unavailable }

    /// Starts loading the sentence model on a thread of its own when it is installed
    /// (`SentenceEncoder.prepare`, once per process): a caller about to run a semantic query
    /// overlaps the load with its own start.
    package static func prepareSemantic() {
        SentenceEncoder.prepare()
    }

    /// Books whose text is nearest in meaning to `query` (the sentence model), after `offset`.
    /// Throws `SemanticUnavailable` when the model or the book vectors cannot be used.
    package func semantic(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook] {
        let limit = min(max(limit, 0), Self.maxLimit)
        let offset = min(max(offset, 0), count)
        guard limit > 0, query.contains(where: { $0.isLetter || $0.isNumber }) else { return [] }
        let ranked = try semanticIndex.ranking(query, depth: offset + limit, available: count)
        let page = ranked.dropFirst(offset).prefix(limit)
        let found = try books(ids: page.map(\.id))
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return page.compactMap { hit in byID[hit.id].map { ScoredBook(book: $0, score: Double(hit.score)) } }
    }

    /// Blend of normalized FTS rank (any column, all terms) and semantic score, 50/50
    /// (`SemanticRanking.hybrid`).
    package func hybrid(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook] {
        let limit = min(max(limit, 0), Self.maxLimit)
        let offset = max(offset, 0)
        guard limit > 0, query.contains(where: { $0.isLetter || $0.isNumber }) else { return [] }
        let books = try self.books
        let pool = min(Self.maxLimit, max(100, offset + limit))
        var textByRow: [Int: Float] = [:]
        if let expr = FTSQuery.expression(query, columns: Self.allColumns) {
            let ids = try ftsSearch(expr, limit: pool, mostRatedFirst: false).ids
            for (id, score) in SemanticRanking.textScores(rankedIDs: ids) {
                if let row = books.indexOfID[id] { textByRow[row] = score }
            }
        }
        let scores = try semanticIndex.scores(query).scores
        return SemanticRanking.hybrid(semantic: scores, textByRow: textByRow, pool: pool, offset: offset, limit: limit)
            .map { ScoredBook(book: books.all[$0.index], score: Double($0.score)) }
    }
}
