import BooksTrackContract
import BooksTrackSupport
import Foundation
import GRDB

extension SQLiteCatalog {
    /// The FTS columns a title, an author and a free-form search match in.
    static let titleColumns = ["title", "original_title", "series"]
    static let authorColumns = ["authors"]
    static let allColumns = ["title", "original_title", "series", "authors"]
    /// The most books one query returns: down to the deepest page a search route serves, so every
    /// page a client may ask for is there.
    static let maxLimit = SearchPageLimits.deepest
    /// Title matches re-ranked by `TitleRanking` (the best bm25 matches; the rest keep bm25 order).
    static let titleRerankPool = 200

    /// Ranked ids and total for a MATCH expression. A deep page (more than the re-ranked pool) reads
    /// every match once and keeps the ranking (`deepMatches`): the pages after it are slices of it,
    /// not a ranking of every match again each (the catalog does not change while it is open).
    func ftsSearch(_ expression: String, limit: Int, mostRatedFirst: Bool) throws -> (ids: [Int], total: Int) {
        let limit = min(max(limit, 0), Self.maxLimit)
        guard limit > Self.titleRerankPool else {
            return try rankedMatches(expression, limit: limit, mostRatedFirst: mostRatedFirst)
        }
        let key = "\(mostRatedFirst)|\(expression)"
        let all: (ids: [Int], total: Int)
        if let kept = deepMatches.value(for: key) {
            all = kept
        } else {
            all = try rankedMatches(expression, limit: Self.maxLimit, mostRatedFirst: mostRatedFirst)
            deepMatches.insert(all, for: key)
        }
        return (Array(all.ids.prefix(limit)), all.total)
    }

    private func rankedMatches(
        _ expression: String,
        limit: Int,
        mostRatedFirst: Bool
    ) throws -> (ids: [Int], total: Int) {
        let order =
            mostRatedFirst
            ? "books.ratings_count DESC, books.id"
            : "bm25(books_fts, 10.0, 6.0, 4.0, 2.0), books.ratings_count DESC, books.id"
        return try database.read { db in
            let total =
                try Int.fetchOne(
                    db,
                    sql: "SELECT count(*) FROM books_fts WHERE books_fts MATCH ?",
                    arguments: [expression]
                ) ?? 0
            guard limit > 0 else { return ([], total) }
            let ids = try Int.fetchAll(
                db,
                sql: """
                    SELECT books.id FROM books_fts JOIN books ON books.id = books_fts.rowid
                    WHERE books_fts MATCH ? ORDER BY \(order) LIMIT ?
                    """,
                arguments: [expression, limit]
            )
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

    /// Free-form matches with the canonical book first: every word in the title, original title,
    /// series or authors (`TitleRanking`, which ranks a book by the author the query names above
    /// books that only mention the name). A query that matches nothing is corrected for spelling
    /// over the same words (`corrected`); its own matches are never replaced by a correction's.
    package func searchTitle(_ query: String, limit: Int) throws -> CatalogPage {
        let page = try freeFormSearch(query, limit: limit)
        guard page.total == 0 else { return page }
        return try corrected(query, scope: .everything) { try freeFormSearch($0, limit: limit) } ?? page
    }

    /// Author matches, most-rated first; a name that matches nothing is corrected for spelling over
    /// the authors' words.
    package func searchAuthor(_ name: String, limit: Int) throws -> CatalogPage {
        let page = try authorSearch(name, limit: limit)
        guard page.total == 0 else { return page }
        return try corrected(name, scope: .authors) { try authorSearch($0, limit: limit) } ?? page
    }

    func freeFormSearch(_ query: String, limit: Int) throws -> CatalogPage {
        try rankedSearch(query, columns: Self.allColumns, limit: limit, acrossAuthors: true)
    }

    /// Title matches only (the advanced search's title and the import's matching: an author given
    /// apart is not guessed from the title's words).
    func titleOnlySearch(_ query: String, limit: Int) throws -> CatalogPage {
        try rankedSearch(query, columns: Self.titleColumns, limit: limit, acrossAuthors: false)
    }

    /// The best bm25 matches of `query` in `columns`, re-ranked by `TitleRanking`.
    func rankedSearch(_ query: String, columns: [String], limit: Int, acrossAuthors: Bool) throws -> CatalogPage {
        let (matchText, query) = Self.titleQuery(query)
        guard let expr = FTSQuery.expression(matchText, columns: columns) else {
            return CatalogPage(books: [], total: 0)
        }
        let limit = min(max(limit, 0), Self.maxLimit)
        guard limit > 0 else {
            return CatalogPage(books: [], total: try ftsSearch(expr, limit: 0, mostRatedFirst: false).total)
        }
        let found = try ftsSearch(expr, limit: max(limit, Self.titleRerankPool), mostRatedFirst: false)
        // Only the pool is re-ranked: a deeper page keeps the same order for the books before it.
        let pool = try books(ids: Array(found.ids.prefix(Self.titleRerankPool)))
        let ranked = TitleRanking.rank(pool, query: query, acrossAuthors: acrossAuthors)
        let rest =
            limit > pool.count
            ? try books(ids: Array(found.ids.dropFirst(Self.titleRerankPool).prefix(limit - pool.count))) : []
        return CatalogPage(books: Array((ranked + rest).prefix(limit)), total: found.total)
    }

    func authorSearch(_ name: String, limit: Int) throws -> CatalogPage {
        guard let expr = FTSQuery.expression(name, columns: Self.authorColumns) else {
            return CatalogPage(books: [], total: 0)
        }
        return try page(try ftsSearch(expr, limit: limit, mostRatedFirst: true))
    }

    package func searchAdvanced(title: String?, author: String?, limit: Int) throws -> CatalogPage {
        let titleExpr = title.flatMap { FTSQuery.expression(Self.titleQuery($0).match, columns: Self.titleColumns) }
        let authorExpr = author.flatMap { FTSQuery.expression($0, columns: Self.authorColumns) }
        switch (titleExpr, authorExpr) {
        case (nil, nil):
            return CatalogPage(books: [], total: 0)
        case (_?, nil):
            return try titleOnlySearch(title ?? "", limit: limit)
        case (nil, let a?):
            return try page(try ftsSearch(a, limit: limit, mostRatedFirst: true))
        case (let t?, let a?):
            let limit = min(max(limit, 0), Self.maxLimit)
            let found = try ftsSearch(t + " AND " + a, limit: max(limit, Self.titleRerankPool), mostRatedFirst: false)
            let ranked = TitleRanking.rank(try books(ids: found.ids), query: Self.titleQuery(title ?? "").rank)
            return CatalogPage(books: Array(ranked.prefix(limit)), total: found.total)
        }
    }

    // MARK: - Title words (the similarity before readers' shelves)

    /// Semantic search as it was before the sentence model: cosine of hashed title, author and
    /// series words (`HashingEmbedding`) with the popularity prior. Kept only to measure the
    /// relevance set's "before" figure (ThemeRelevanceTests); `semantic` uses the model.
    func titleWordSemantic(_ query: String, limit: Int) throws -> [ScoredBook] {
        guard limit > 0, !HashingEmbedding.tokens(query).isEmpty else { return [] }
        let books = try self.books
        let q = HashingEmbedding.embed(query: query)
        return try vectors.withCosines(q) { scores in
            for row in 0..<min(scores.count, books.popularity.count) {
                scores[row] = SemanticRanking.titleWordScore(scores[row], popularity: books.popularity[row])
            }
            return VectorIndex.topK(UnsafeBufferPointer(scores), k: limit).filter { scores[$0] > 0 }
                .map { ScoredBook(book: books.all[$0], score: Double(scores[$0])) }
        }
    }
}
