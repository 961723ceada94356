import BooksTrackContract
import Foundation
import GRDB

extension SQLiteCatalog {
    /// The FTS columns a title, an author and a whole-book search match in.
    static let titleColumns = ["title", "original_title", "series"]
    static let authorColumns = ["authors"]
    static let allColumns = ["title", "original_title", "series", "authors"]
    static let maxLimit = 1000
    /// Title matches re-ranked by `TitleRanking` (the best bm25 matches; the rest keep bm25 order).
    static let titleRerankPool = 200

    /// Ranked ids and total for a MATCH expression.
    func ftsSearch(_ expression: String, limit: Int, mostRatedFirst: Bool) throws -> (ids: [Int], total: Int) {
        let limit = min(max(limit, 0), Self.maxLimit)
        let order =
            mostRatedFirst
            ? "books.ratings_count DESC, books.id"
            : "bm25(books_fts, 10.0, 6.0, 4.0, 2.0), books.ratings_count DESC, books.id"
        return try database.read { db in
            let total =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM books_fts WHERE books_fts MATCH ?", arguments: [expression]) ?? 0
            guard limit > 0 else { return ([], total) }
            let ids = try Int.fetchAll(
                db,
                sql: """
                    SELECT books.id FROM books_fts JOIN books ON books.id = books_fts.rowid
                    WHERE books_fts MATCH ? ORDER BY \(order) LIMIT ?
                    """,
                arguments: [expression, limit])
            return (ids, total)
        }
    }

    func page(_ result: (ids: [Int], total: Int)) throws -> CatalogPage {
        CatalogPage(books: try books(ids: result.ids), total: result.total)
    }

    /// The words a title query is matched with: a catalog title as listed, with its series suffix
    /// ("A Wizard of Earthsea (Earthsea Cycle, #1)", what completion inserts), is indexed as its base
    /// title and its series name, so the suffix's number and punctuation are dropped.
    static func titleQuery(_ query: String) -> (match: String, rank: String) {
        let (base, series) = CatalogFieldCleaning.series(inTitle: query)
        guard let series else { return (query, query) }
        return (base + " " + series.name, base)
    }

    /// Title matches with the canonical book first (`TitleRanking`).
    public func searchTitle(_ query: String, limit: Int) throws -> CatalogPage {
        let (matchText, query) = Self.titleQuery(query)
        guard let expr = FTSQuery.expression(matchText, columns: Self.titleColumns) else {
            return CatalogPage(books: [], total: 0)
        }
        let limit = min(max(limit, 0), Self.maxLimit)
        guard limit > 0 else { return CatalogPage(books: [], total: try ftsSearch(expr, limit: 0, mostRatedFirst: false).total) }
        let found = try ftsSearch(expr, limit: max(limit, Self.titleRerankPool), mostRatedFirst: false)
        let ranked = TitleRanking.rank(try books(ids: found.ids), query: query)
        return CatalogPage(books: Array(ranked.prefix(limit)), total: found.total)
    }

    public func searchAuthor(_ name: String, limit: Int) throws -> CatalogPage {
        guard let expr = FTSQuery.expression(name, columns: Self.authorColumns) else {
            return CatalogPage(books: [], total: 0)
        }
        return try page(try ftsSearch(expr, limit: limit, mostRatedFirst: true))
    }

    public func searchAdvanced(title: String?, author: String?, limit: Int) throws -> CatalogPage {
        let titleExpr = title.flatMap { FTSQuery.expression(Self.titleQuery($0).match, columns: Self.titleColumns) }
        let authorExpr = author.flatMap { FTSQuery.expression($0, columns: Self.authorColumns) }
        switch (titleExpr, authorExpr) {
        case (nil, nil):
            return CatalogPage(books: [], total: 0)
        case (_?, nil):
            return try searchTitle(title ?? "", limit: limit)
        case (nil, let a?):
            return try page(try ftsSearch(a, limit: limit, mostRatedFirst: true))
        case (let t?, let a?):
            let limit = min(max(limit, 0), Self.maxLimit)
            let found = try ftsSearch(t + " AND " + a, limit: max(limit, Self.titleRerankPool), mostRatedFirst: false)
            let ranked = TitleRanking.rank(try books(ids: found.ids), query: Self.titleQuery(title ?? "").rank)
            return CatalogPage(books: Array(ranked.prefix(limit)), total: found.total)
        }
    }

    // MARK: - Vectors

    /// Weight of the popularity prior added to cosines when ranking semantic results.
    static let popularityWeight: Float = 0.06

    /// Semantic score for the cosine `cosine` of a book with popularity prior `popularity`, in 0…1.
    @inline(__always)
    static func semanticScore(_ cosine: Float, popularity: Float) -> Float {
        min(1, max(0, cosine * (1 - popularityWeight) + popularityWeight * popularity * max(0, cosine).squareRoot()))
    }

    /// Top `k` rows by semantic score for `query` (rows and scores, best first).
    func semanticTop(_ query: String, k: Int) throws -> [(row: Int, score: Float)] {
        let books = try self.books
        let vectors = try self.vectors
        let q = HashingEmbedding.embed(query: query)
        return vectors.withCosines(q) { scores in
            books.popularity.withUnsafeBufferPointer { popularity in
                for row in 0..<min(scores.count, popularity.count) {
                    scores[row] = Self.semanticScore(scores[row], popularity: popularity[row])
                }
            }
            return VectorIndex.topK(UnsafeBufferPointer(scores), k: k).map { ($0, scores[$0]) }
        }
    }

    public func semantic(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook] {
        let limit = min(max(limit, 0), Self.maxLimit)
        let offset = min(max(offset, 0), count)
        guard limit > 0, !HashingEmbedding.tokens(query).isEmpty else { return [] }
        let books = try self.books
        return try semanticTop(query, k: offset + limit).dropFirst(offset)
            .filter { $0.score > 0 }
            .map { ScoredBook(book: books.all[$0.row], score: Double($0.score)) }
    }

    /// Blend of normalized FTS rank (any column, all terms) and semantic score, 50/50. Books found
    /// only semantically get no text share; books found only by text still get their cosine.
    public func hybrid(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook] {
        let limit = min(max(limit, 0), Self.maxLimit)
        let offset = max(offset, 0)
        guard limit > 0, !HashingEmbedding.tokens(query).isEmpty else { return [] }
        let books = try self.books
        let vectors = try self.vectors
        let pool = min(Self.maxLimit, max(100, offset + limit))
        var textScore: [Int: Float] = [:]
        if let expr = FTSQuery.expression(query, columns: Self.allColumns) {
            let ids = try ftsSearch(expr, limit: pool, mostRatedFirst: false).ids
            for (rank, id) in ids.enumerated() { textScore[id] = 1 - Float(rank) / Float(max(ids.count, 1)) }
        }
        let q = HashingEmbedding.embed(query: query)
        let blended: [(row: Int, score: Float)] = vectors.withCosines(q) { scores in
            for row in 0..<min(scores.count, books.popularity.count) {
                scores[row] = Self.semanticScore(scores[row], popularity: books.popularity[row])
            }
            var candidates = Set(VectorIndex.topK(UnsafeBufferPointer(scores), k: pool))
            for id in textScore.keys { if let row = vectors.rowOfID[id] { candidates.insert(row) } }
            var heap = BoundedMinHeap(capacity: offset + limit)
            for row in candidates {
                heap.offer(score: 0.5 * scores[row] + 0.5 * (textScore[vectors.ids[row]] ?? 0), index: row)
            }
            return heap.sortedDescending().map { ($0.index, $0.score) }
        }
        return blended.dropFirst(offset).filter { $0.score > 0 }.map {
            ScoredBook(book: books.all[$0.row], score: Double(min(1, $0.score)))
        }
    }
}
