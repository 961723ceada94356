import Foundation
import GRDB

/// Builds FTS5 MATCH expressions from untrusted user input. Input is split into word tokens
/// (letters and digits only) and every token is emitted as a double-quoted string, so FTS syntax
/// in the input (`"`, `*`, `-`, `:`, `^`, `(`, `AND`, `NEAR`, ...) is always taken literally.
public enum FTSQuery {
    /// At most this many tokens are used (longer inputs are cut).
    public static let maxTerms = 24
    /// Tokens longer than this are cut.
    public static let maxTermLength = 64

    /// Word tokens of `input` in order.
    public static func terms(_ input: String) -> [String] {
        var out: [String] = []
        var current = ""
        func flush() {
            if !current.isEmpty, out.count < maxTerms { out.append(String(current.prefix(maxTermLength))) }
            current = ""
        }
        for scalar in input.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else {
                flush()
            }
            if out.count >= maxTerms { break }
        }
        flush()
        return out
    }

    /// `{c1 c2} : "t1" AND {c1 c2} : "t2"*` — every term must match in one of `columns`; the last
    /// term matches as a prefix when `prefixLast`. Nil when the input has no terms.
    public static func expression(_ input: String, columns: [String], prefixLast: Bool = true) -> String? {
        let words = terms(input)
        guard !words.isEmpty else { return nil }
        let filter = "{" + columns.joined(separator: " ") + "} : "
        return words.enumerated().map { i, w in
            filter + "\"" + w + "\"" + (prefixLast && i == words.count - 1 ? "*" : "")
        }.joined(separator: " AND ")
    }

    static let titleColumns = ["title", "original_title", "series"]
    static let authorColumns = ["authors"]
    static let allColumns = ["title", "original_title", "series", "authors"]
}

extension SQLiteCatalog {
    static let maxLimit = 1000

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

    func page(_ result: (ids: [Int], total: Int)) -> CatalogPage {
        CatalogPage(books: result.ids.compactMap { indexOfID[$0].map { books[$0] } }, total: result.total)
    }

    public func searchTitle(_ query: String, limit: Int) throws -> CatalogPage {
        guard let expr = FTSQuery.expression(query, columns: FTSQuery.titleColumns) else {
            return CatalogPage(books: [], total: 0)
        }
        return page(try ftsSearch(expr, limit: limit, mostRatedFirst: false))
    }

    public func searchAuthor(_ name: String, limit: Int) throws -> CatalogPage {
        guard let expr = FTSQuery.expression(name, columns: FTSQuery.authorColumns) else {
            return CatalogPage(books: [], total: 0)
        }
        return page(try ftsSearch(expr, limit: limit, mostRatedFirst: true))
    }

    public func searchAdvanced(title: String?, author: String?, limit: Int) throws -> CatalogPage {
        let titleExpr = title.flatMap { FTSQuery.expression($0, columns: FTSQuery.titleColumns) }
        let authorExpr = author.flatMap { FTSQuery.expression($0, columns: FTSQuery.authorColumns) }
        switch (titleExpr, authorExpr) {
        case (nil, nil):
            return CatalogPage(books: [], total: 0)
        case (let t?, nil):
            return page(try ftsSearch(t, limit: limit, mostRatedFirst: false))
        case (nil, let a?):
            return page(try ftsSearch(a, limit: limit, mostRatedFirst: true))
        case (let t?, let a?):
            return page(try ftsSearch(t + " AND " + a, limit: limit, mostRatedFirst: false))
        }
    }

    // MARK: - Vectors

    /// Weight of the popularity prior added to cosines when ranking semantic results.
    static let popularityWeight: Float = 0.06

    /// Semantic score of row `row` for the cosine `cosine`, in 0…1.
    func semanticScore(_ cosine: Float, row: Int) -> Float {
        min(1, max(0, cosine * (1 - Self.popularityWeight) + Self.popularityWeight * popularity[row] * max(0, cosine).squareRoot()))
    }

    public func semantic(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook] {
        let limit = min(max(limit, 0), Self.maxLimit)
        let offset = min(max(offset, 0), vectors.count)
        guard limit > 0, !HashingEmbedding.tokens(query).isEmpty else { return [] }
        let q = HashingEmbedding.embed(query: query)
        let cosines = vectors.cosines(q)
        var scores = cosines
        for row in scores.indices { scores[row] = semanticScore(cosines[row], row: row) }
        let rows = VectorIndex.topK(scores, k: offset + limit).dropFirst(offset)
        return rows.filter { scores[$0] > 0 }.map { ScoredBook(book: books[$0], score: Double(scores[$0])) }
    }

    public func similar(isbn13: String, limit: Int) throws -> [ScoredBook]? {
        guard let source = try book(isbn13: isbn13) else { return nil }
        return similar(id: source.id, limit: limit)
    }

    /// Nearest neighbours of the book with goodbooks id `id` (itself excluded); nil when unknown.
    public func similar(id: Int, limit: Int) -> [ScoredBook]? {
        guard let row = vectors.rowOfID[id], let vector = vectors.vector(ofID: id) else { return nil }
        let limit = min(max(limit, 0), Self.maxLimit)
        let cosines = vectors.cosines(Array(vector))
        let rows = VectorIndex.topK(cosines, k: limit, excluding: [row])
        return rows.map { ScoredBook(book: books[$0], score: Double(min(1, max(0, cosines[$0])))) }
    }

    /// Blend of normalized FTS rank (any column, all terms) and semantic score, 50/50. Books found
    /// only semantically get no text share; books found only by text still get their cosine.
    public func hybrid(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook] {
        let limit = min(max(limit, 0), Self.maxLimit)
        let offset = max(offset, 0)
        guard limit > 0, !HashingEmbedding.tokens(query).isEmpty else { return [] }
        let pool = min(Self.maxLimit, max(100, offset + limit))
        var textScore: [Int: Float] = [:]
        if let expr = FTSQuery.expression(query, columns: FTSQuery.allColumns) {
            let ids = try ftsSearch(expr, limit: pool, mostRatedFirst: false).ids
            for (rank, id) in ids.enumerated() { textScore[id] = 1 - Float(rank) / Float(max(ids.count, 1)) }
        }
        let cosines = vectors.cosines(HashingEmbedding.embed(query: query))
        var semanticScores = cosines
        for row in semanticScores.indices { semanticScores[row] = semanticScore(cosines[row], row: row) }
        var candidates = Set(VectorIndex.topK(semanticScores, k: pool))
        for id in textScore.keys { if let row = vectors.rowOfID[id] { candidates.insert(row) } }
        var blended: [Float] = Array(repeating: -1, count: vectors.count)
        for row in candidates {
            blended[row] = 0.5 * semanticScores[row] + 0.5 * (textScore[vectors.ids[row]] ?? 0)
        }
        let rows = VectorIndex.topK(blended, k: offset + limit).dropFirst(offset)
        return rows.filter { blended[$0] > 0 }.map { ScoredBook(book: books[$0], score: Double(min(1, blended[$0]))) }
    }
}
