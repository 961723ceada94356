import BooksTrackEmbedding
import Foundation
import GRDB

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

/// The catalog's sentence-model state: the bundled book vectors (loaded once, checked against the
/// catalog and the installed model), the embeddings of recent queries and their rankings.
/// The arithmetic is `SemanticRanking`'s.
final class SemanticIndex: Sendable {
    /// The bundled book vectors (`Resources/book-vectors.bin`, made by `scripts/build-book-vectors`).
    static let bookVectorsResourceName = "book-vectors"
    static let bookVectorsExtension = "bin"

    /// How many of a query's best books its cached ranking keeps (a deeper page is ranked again).
    static let cachedRanking = 200

    private let database: DatabaseQueue
    /// The content hash of the resources the catalog was built from (the vectors' stamp names it).
    let catalogHash: String
    private let loaded = OnceBox<BookVectors>()
    private let queryCache = QueryCache<[Float]>()
    private let rankingCache = QueryCache<[(id: Int, score: Float)]>()

    init(database: DatabaseQueue, catalogHash: String) {
        self.database = database
        self.catalogHash = catalogHash
    }

    /// Why semantic search cannot run here, or nil. Cheap: two `stat`s and the vectors' stamp.
    var unavailable: SemanticUnavailable? {
        if let missing = SentenceEncoder.availability() { return .model(missing) }
        do {
            let url = try CatalogResources.url(
                Self.bookVectorsResourceName,
                extension: Self.bookVectorsExtension
            )
            return Self.staleness(of: try QuantizedVectors.stamp(at: url), catalog: catalogHash).map(
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
                return try loaded.get(load)
            } catch let error as SemanticUnavailable {
                throw error
            } catch {
                throw .vectors("\(error)")
            }
        }
    }

    private func load() throws -> BookVectors {
        let url = try CatalogResources.url(Self.bookVectorsResourceName, extension: Self.bookVectorsExtension)
        let vectors = try QuantizedVectors(contentsOf: url)
        if let stale = Self.staleness(of: vectors.stamp, catalog: catalogHash) {
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
            throw SemanticUnavailable.vectors("their books are not this catalog's; run scripts/build-book-vectors")
        }
        return BookVectors(vectors: vectors, ids: ids, popularity: SemanticRanking.popularity(ratingsCounts: ratings))
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

    /// Every row's semantic score for `query` (`SemanticRanking.score`); rows in id order.
    func scores(_ query: String) throws -> (scores: [Float], ids: [Int]) {
        SentenceEncoder.prepare()  // a first query's model loads on another thread while the book vectors do
        let loaded = try bookVectors
        let embedding = try queryEmbedding(query)
        return (
            SemanticRanking.scores(cosines: loaded.vectors.cosines(embedding), popularity: loaded.popularity),
            loaded.ids
        )
    }

    /// The best books for `query`, best first, at least `depth` of them when `available` books allow
    /// (cached per query, at least `cachedRanking` deep).
    func ranking(_ query: String, depth: Int, available: Int) throws -> [(id: Int, score: Float)] {
        let key = query.trimmingCharacters(in: .whitespacesAndNewlines)
        let cached = rankingCache.value(for: key) ?? []
        if cached.count >= min(depth, available) { return cached }
        let (scores, ids) = try scores(query)
        let ranked = SemanticRanking.top(scores, ids: ids, k: max(depth, Self.cachedRanking))
        rankingCache.insert(ranked, for: key)
        return ranked
    }
}
