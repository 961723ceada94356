import BooksTrackContract
import BooksTrackEmbedding
import BooksTrackSupport
import Foundation
import GRDB
import Synchronization

/// Why `semantic` (and `hybrid`) cannot run here: the model is missing, or the shipped book
/// vectors do not belong to this catalog or model. `description` is one sentence for the user.
package enum SemanticUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    case model(ModelUnavailable)
    case vectors(String)

    package var description: String {
        switch self {
        case .model(let reason): return reason.description
        case .vectors(let why): return "semantic search cannot use the bundled book vectors: \(why)"
        }
    }
}

/// The book vectors, rows in the order of `books.all` (id order), with each row's id and
/// popularity prior: all `semantic` needs before it fetches the books it returns.
struct BookVectors: Sendable {
    let vectors: QuantizedVectors
    let ids: [Int]
    let popularity: [Float]
}

extension SQLiteCatalog {
    /// The bundled book vectors (`Resources/book-vectors.bin`, made by `scripts/build-book-vectors`).
    static let bookVectorsResourceName = "book-vectors"
    static let bookVectorsExtension = "bin"

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
    package var resourceHash: String {
        String(lastOpenStats.contentKey.split(separator: "-").last ?? "")
    }

    package var semanticUnavailableReason: String? { semanticUnavailable?.description }

    /// Why semantic search cannot run here, or nil. Cheap: two `stat`s and the vectors' stamp.
    package var semanticUnavailable: SemanticUnavailable? {
        if let missing = SentenceEncoder.availability() { return .model(missing) }
        do {
            let url = try Self.bundledResourceURL(Self.bookVectorsResourceName, extension: Self.bookVectorsExtension)
            return Self.staleness(of: try QuantizedVectors.stamp(at: url), catalog: resourceHash).map(
                SemanticUnavailable.vectors
            )
        } catch {
            return .vectors("\(error)")
        }
    }

    /// Why vectors with `stamp` do not fit this catalog (hash `catalog`) and the installed model, or nil.
    static func staleness(of stamp: QuantizedVectors.Stamp, catalog: String) -> String? {
        if stamp.catalog != catalog {
            return
                "they were made from another catalog (\(stamp.catalog), this one is \(catalog)); run scripts/build-book-vectors"
        }
        if stamp.dimension != SentenceEncoder.dimension || stamp.model != ModelLocation.name {
            return "they were made by another model (\(stamp.model)); run scripts/build-book-vectors"
        }
        if let dir = ModelLocation.installed() {
            var info = stat()
            let path = dir.appendingPathComponent("model.safetensors").path
            if stat(path, &info) == 0, Int(info.st_size) != stamp.modelBytes {
                return
                    "they were made from another model file (\(stamp.modelBytes) bytes, the installed one has \(info.st_size)); run scripts/setup"
            }
        }
        return nil
    }

    /// The book vectors, loaded once at first use (checked against this catalog).
    var bookVectors: BookVectors {
        get throws(SemanticUnavailable) {
            do {
                return try loadedBookVectors.get {
                    let url = try Self.bundledResourceURL(
                        Self.bookVectorsResourceName,
                        extension: Self.bookVectorsExtension
                    )
                    let vectors = try QuantizedVectors(contentsOf: url)
                    if let stale = Self.staleness(of: vectors.stamp, catalog: resourceHash) {
                        throw SemanticUnavailable.vectors(stale)
                    }
                    // Ids and ratings only, from their covering index (the table's rows carry vectors
                    // and shelves, far more to read): a one-shot semantic loads no book.
                    // A cursor reads the columns in place (no Row per book).
                    var ids: [Int] = []
                    var ratings: [Int] = []
                    ids.reserveCapacity(vectors.ids.count)
                    ratings.reserveCapacity(vectors.ids.count)
                    try database.read { db in
                        let rows = try Row.fetchCursor(
                            db,
                            sql: "SELECT id, ratings_count FROM books INDEXED BY books_popularity ORDER BY id"
                        )
                        while let row = try rows.next() {
                            ids.append(try row.decode(atIndex: 0))
                            ratings.append(try row.decode(atIndex: 1))
                        }
                    }
                    guard vectors.ids.elementsEqual(ids, by: { Int($0) == $1 }) else {
                        throw SemanticUnavailable.vectors(
                            "their books are not this catalog's; run scripts/build-book-vectors"
                        )
                    }
                    return BookVectors(vectors: vectors, ids: ids, popularity: Self.popularity(ratingsCounts: ratings))
                }
            } catch let error as SemanticUnavailable {
                throw error
            } catch {
                throw .vectors("\(error)")
            }
        }
    }

    /// Starts loading the sentence model on a thread of its own when it is installed
    /// (`SentenceEncoder.prepare`, once per process): a caller about to run a semantic query
    /// overlaps the load with its own start.
    package static func prepareSemantic() {
        SentenceEncoder.prepare()
    }

    /// The unit embedding of `query` (from the per-process cache when asked recently).
    func queryEmbedding(_ query: String) throws(SemanticUnavailable) -> [Float] {
        let key = query.trimmingCharacters(in: .whitespacesAndNewlines)
        if let cached = queryCache.value(for: key) { return cached }
        switch SentenceEncoder.shared() {
        case .failure(let reason): throw .model(reason)
        case .success(let encoder):
            let vector = encoder.encode(key)
            queryCache.insert(vector, for: key)
            return vector
        }
    }

    /// How many of a query's best books its cached ranking keeps (a deeper page is ranked again).
    static let cachedRanking = 200

    /// Weight of the popularity prior in the semantic score (`semanticScore`), chosen on the
    /// development set `meaning-dev.json` (docs/meaning.md): the best hit@10 among the weights whose
    /// answers stay varied (no book in more than a fifth of the 40 queries' top 10s).
    static let popularityWeight: Float = 0.3

    /// Semantic score for the cosine `cosine` of a book with popularity prior `popularity`, in 0…1:
    /// `(1 - w) × cosine + w × popularity`.
    @inline(__always)
    static func semanticScore(_ cosine: Float, popularity: Float) -> Float {
        min(1, max(0, cosine * (1 - popularityWeight) + popularityWeight * popularity))
    }

    /// Every row's semantic score for `query`: the cosine of the query's embedding with the book's,
    /// with the popularity prior (`semanticScore`); rows in id order.
    func semanticScores(_ query: String) throws -> (scores: [Float], ids: [Int]) {
        Self.prepareSemantic()  // a first query's model loads on another thread while the book vectors do
        let loaded = try bookVectors
        let embedding = try queryEmbedding(query)
        var scores = loaded.vectors.cosines(embedding)
        for row in 0..<min(scores.count, loaded.popularity.count) {
            scores[row] = Self.semanticScore(scores[row], popularity: loaded.popularity[row])
        }
        return (scores, loaded.ids)
    }

    /// Books whose text is nearest in meaning to `query` (the sentence model), after `offset`.
    /// Throws `SemanticUnavailable` when the model or the book vectors cannot be used.
    package func semantic(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook] {
        let limit = min(max(limit, 0), Self.maxLimit)
        let offset = min(max(offset, 0), count)
        guard limit > 0, query.contains(where: { $0.isLetter || $0.isNumber }) else { return [] }
        let key = query.trimmingCharacters(in: .whitespacesAndNewlines)
        var ranked = rankingCache.value(for: key) ?? []
        if ranked.count < min(offset + limit, count) {
            let (scores, ids) = try semanticScores(query)
            ranked = VectorIndex.topK(scores, k: max(offset + limit, Self.cachedRanking))
                .filter { scores[$0] > 0 }.map { (id: ids[$0], score: scores[$0]) }
            rankingCache.insert(ranked, for: key)
        }
        let page = ranked.dropFirst(offset).prefix(limit)
        let found = try books(ids: page.map(\.id))
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return page.compactMap { hit in byID[hit.id].map { ScoredBook(book: $0, score: Double(hit.score)) } }
    }

    /// Blend of normalized FTS rank (any column, all terms) and semantic score, 50/50. Books found
    /// only semantically get no text share; books found only by text still get their semantic score.
    package func hybrid(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook] {
        let limit = min(max(limit, 0), Self.maxLimit)
        let offset = max(offset, 0)
        guard limit > 0, query.contains(where: { $0.isLetter || $0.isNumber }) else { return [] }
        let books = try self.books
        let pool = min(Self.maxLimit, max(100, offset + limit))
        var textScore: [Int: Float] = [:]
        if let expr = FTSQuery.expression(query, columns: Self.allColumns) {
            let ids = try ftsSearch(expr, limit: pool, mostRatedFirst: false).ids
            for (rank, id) in ids.enumerated() { textScore[id] = 1 - Float(rank) / Float(max(ids.count, 1)) }
        }
        let scores = try semanticScores(query).scores
        var candidates = Set(VectorIndex.topK(scores, k: pool))
        for id in textScore.keys { if let row = books.indexOfID[id] { candidates.insert(row) } }
        var heap = BoundedMinHeap(capacity: offset + limit)
        for row in candidates {
            heap.offer(score: 0.5 * scores[row] + 0.5 * (textScore[books.all[row].id] ?? 0), index: row)
        }
        return heap.sortedDescending().dropFirst(offset).filter { $0.score > 0 }.map {
            ScoredBook(book: books.all[$0.index], score: Double(min(1, $0.score)))
        }
    }
}

/// Up to `capacity` values by query, the oldest dropped first: the embeddings of recent queries and
/// their rankings (a server answers a repeated query without running the model or scanning the
/// vectors again; a one-shot process never repeats one).
final class QueryCache<Value: Sendable>: Sendable {
    private struct State {
        var values: [String: Value] = [:]
        var order: [String] = []
    }
    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int = 512) { self.capacity = capacity }

    func value(for key: String) -> Value? {
        state.withLock { $0.values[key] }
    }

    func insert(_ value: Value, for key: String) {
        state.withLock { state in
            if state.values.updateValue(value, forKey: key) == nil { state.order.append(key) }
            if state.order.count > capacity {
                let evicted = state.order.removeFirst()
                state.values[evicted] = nil
            }
        }
    }
}
