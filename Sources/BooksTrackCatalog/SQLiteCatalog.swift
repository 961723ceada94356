import BooksTrackContract
import BooksTrackEmbedding
import Foundation
import GRDB
import Synchronization

/// How `SQLiteCatalog` was opened (for the cold-start benchmark; figures are printed, never asserted).
package struct CatalogOpenStats: Sendable, Hashable, CustomStringConvertible {
    package enum Outcome: String, Sendable, Hashable {
        /// The database file was built from the resource by this open.
        case built
        /// An existing database file with the same content key was reused.
        case reused
        /// Built in memory (tests).
        case inMemory
    }

    package var outcome: Outcome
    /// Content key: schema version, embedding version and hash of the resource.
    package var contentKey: String
    /// Path of the database file (nil in memory).
    package var databasePath: String?
    /// Seconds spent parsing the resource and building the database (0 when reused).
    package var buildSeconds: Double
    /// Seconds spent loading into memory at open (0: books and vectors load on first use).
    package var loadSeconds: Double
    /// Wall time of the whole open.
    package var totalSeconds: Double

    package var description: String {
        let f = { (s: Double) in String(format: "%.3fs", s) }
        return
            "\(outcome.rawValue) key=\(contentKey) build=\(f(buildSeconds)) load=\(f(loadSeconds)) total=\(f(totalSeconds))"
    }
}

/// The goodbooks-10k catalog: SQLite (GRDB) with an FTS5 index for text search and a matrix of
/// hashed embeddings (`HashingEmbedding`) for semantic and similar-book search.
///
/// Opening costs one small query: lookups by ISBN or id and text searches go to SQLite. The books
/// in memory (recommendations, vector results) and the sparse vectors (6.6 MB; `semantic`,
/// `similar`, `hybrid`) are loaded on first use, so a one-shot ISBN lookup never pays for them.
/// Read-only once opened, so it is safe to share across tasks.
package final class SQLiteCatalog: CatalogQuerying {
    /// Errors opening the catalog.
    package enum OpenError: Error, Sendable, CustomStringConvertible {
        case missingResource
        case badVector(id: Int)
        case rename(String)

        package var description: String {
            switch self {
            case .missingResource: return "the bundled catalog.tsv resource is missing"
            case .badVector(let id): return "book \(id) has a malformed vector"
            case .rename(let message): return "cannot move the built catalog into place: \(message)"
            }
        }
    }

    /// Every book in id order, with lookups and the popularity prior (loaded on first use).
    struct Books: Sendable {
        let all: [CatalogBook]
        let indexOfID: [Int: Int]
        /// Popularity prior in 0…1 per row (log ratings count / log max).
        let popularity: [Float]
    }

    let database: DatabaseQueue
    private let loadedBooks = OnceBox<Books>()
    private let loadedVectors = OnceBox<VectorIndex>()
    let loadedShelfVectors = OnceBox<ShelfVectors>()
    let loadedSpelling = OnceBox<SpellingVocabularies>()
    /// The sentence-model side: book vectors, recent query embeddings and rankings.
    let semanticIndex: SemanticIndex
    /// Every match of a search read for a deep page, ranked (``ftsSearch(_:limit:mostRatedFirst:)``).
    let deepMatches = QueryCache<(ids: [Int], total: Int)>(capacity: 64)

    /// How this instance was opened.
    package let lastOpenStats: CatalogOpenStats

    package let count: Int

    init(database: DatabaseQueue, stats: CatalogOpenStats, start: Date) throws {
        self.database = database
        self.count = try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM books") ?? 0 }
        var stats = stats
        stats.totalSeconds = Date().timeIntervalSince(start)
        self.lastOpenStats = stats
        self.semanticIndex = SemanticIndex(
            database: database,
            catalogHash: String(stats.contentKey.split(separator: "-").last ?? "")
        )
    }

    /// The books in memory (loaded once, on first use).
    var books: Books {
        get throws {
            try loadedBooks.get {
                let all = try database.read { db in try CatalogRows.loadBooks(db) }
                var indexOfID: [Int: Int] = [:]
                indexOfID.reserveCapacity(all.count)
                for (i, b) in all.enumerated() { indexOfID[b.id] = i }
                return Books(
                    all: all,
                    indexOfID: indexOfID,
                    popularity: SemanticRanking.popularity(ratingsCounts: all.map(\.ratingsCount))
                )
            }
        }
    }

    /// The vector matrix, rows in the order of `books.all` (loaded once, on first use).
    var vectors: VectorIndex {
        get throws {
            // The ids are read inside the loader, so that no call maps every book again.
            try loadedVectors.get {
                let ids = try books.all.map(\.id)
                return try database.read { db in try CatalogRows.loadVectors(db, ids: ids) }
            }
        }
    }

    /// Loads the books, vectors and shelf vectors now (a long-running server warms up in the background).
    /// With the sentence model installed, its weights and the book vectors too.
    package func preload() {
        _ = try? shelfVectors
        if semanticUnavailable == nil {
            _ = try? semanticIndex.bookVectors
            _ = SentenceEncoder.shared()
        }
    }

    // MARK: - Opening

    /// The bundled cleaned catalog (`Resources/catalog.tsv`), or another bundled resource by name
    /// (`shelves`: `Resources/shelves.tsv`).
    package static func bundledResource(_ name: String = "catalog") throws -> Data {
        try CatalogResources.data(name)
    }

    /// Opens the bundled catalog, building its database in `cacheDirectory` once (`CatalogBuilder`;
    /// reused while the resource, schema and embedding are unchanged). When the resource is the same
    /// file as last time (`CatalogResourceStamp`), its database is opened without reading the resource.
    package static func open(cacheDirectory: URL) throws -> SQLiteCatalog {
        if let key = CatalogBuilder.stampedKey(in: cacheDirectory),
            let catalog = try? openBuilt(cacheDirectory: cacheDirectory, key: key, start: Date())
        {
            return catalog
        }
        let catalog = try open(
            cacheDirectory: cacheDirectory,
            catalogTSV: try bundledResource(),
            shelvesTSV: try bundledResource(CatalogResources.shelvesName)
        )
        CatalogBuilder.stamp(key: catalog.lastOpenStats.contentKey, in: cacheDirectory)
        return catalog
    }

    /// Whether `open(cacheDirectory:)` would find the bundled catalog's database built (or open
    /// in this process); false when it would build it first.
    package static func isBuilt(cacheDirectory: URL) -> Bool {
        if isOpen(cacheDirectory: cacheDirectory) { return true }
        guard let key = CatalogBuilder.bundledKey(in: cacheDirectory) else { return false }
        return FileManager.default.fileExists(atPath: CatalogBuilder.databaseURL(in: cacheDirectory, key: key).path)
    }

    /// The database already built for `key` in `cacheDirectory`, or nil.
    static func openBuilt(cacheDirectory: URL, key: String, start: Date) throws -> SQLiteCatalog? {
        let finalURL = CatalogBuilder.databaseURL(in: cacheDirectory, key: key)
        guard let queue = CatalogBuilder.built(at: finalURL, key: key) else { return nil }
        let stats = CatalogOpenStats(
            outcome: .reused,
            contentKey: key,
            databasePath: finalURL.path,
            buildSeconds: 0,
            loadSeconds: 0,
            totalSeconds: 0
        )
        return try SQLiteCatalog(database: queue, stats: stats, start: start)
    }

    /// Opens a catalog from TSV bytes (the `catalog.tsv` format, and `shelves.tsv`'s when given), building
    /// `cacheDirectory/catalog-<content key>.sqlite` if it does not exist yet (`CatalogBuilder.buildFile`).
    package static func open(cacheDirectory: URL, catalogTSV: Data, shelvesTSV: Data? = nil) throws -> SQLiteCatalog {
        let start = Date()
        let key = CatalogBuilder.contentKey(for: catalogTSV, shelves: shelvesTSV)
        try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        if let built = try openBuilt(cacheDirectory: cacheDirectory, key: key, start: start) { return built }
        let buildStart = Date()
        try CatalogBuilder.buildFile(catalogTSV: catalogTSV, shelvesTSV: shelvesTSV, key: key, in: cacheDirectory)
        let finalURL = CatalogBuilder.databaseURL(in: cacheDirectory, key: key)
        let stats = CatalogOpenStats(
            outcome: .built,
            contentKey: key,
            databasePath: finalURL.path,
            buildSeconds: Date().timeIntervalSince(buildStart),
            loadSeconds: 0,
            totalSeconds: 0
        )
        return try SQLiteCatalog(database: try CatalogBuilder.openReadOnly(finalURL), stats: stats, start: start)
    }

    /// Builds the catalog in an in-memory database (tests, or when no cache directory is writable).
    package static func openInMemory(catalogTSV: Data, shelvesTSV: Data? = nil) throws -> SQLiteCatalog {
        let start = Date()
        let key = CatalogBuilder.contentKey(for: catalogTSV, shelves: shelvesTSV)
        let queue = try CatalogBuilder.buildInMemory(catalogTSV: catalogTSV, shelvesTSV: shelvesTSV, key: key)
        let stats = CatalogOpenStats(
            outcome: .inMemory,
            contentKey: key,
            databasePath: nil,
            buildSeconds: Date().timeIntervalSince(start),
            loadSeconds: 0,
            totalSeconds: 0
        )
        return try SQLiteCatalog(database: queue, stats: stats, start: start)
    }

    // MARK: - Lookups

    package func book(isbn13: String) throws -> CatalogBook? {
        let digits = isbn13.filter { $0.isASCII && $0.isNumber }
        guard digits.count == 13 else { return nil }
        return try database.read { db in
            try Row.fetchOne(
                db,
                sql: CatalogRows.selectBooks + " WHERE isbn13 = ? ORDER BY id LIMIT 1",
                arguments: [digits]
            )
            .map(CatalogRows.book(from:))
        }
    }

    package func book(id: Int) throws -> CatalogBook? {
        if let loaded = loadedBooks.current { return loaded.indexOfID[id].map { loaded.all[$0] } }
        return try database.read { db in
            try Row.fetchOne(db, sql: CatalogRows.selectBooks + " WHERE id = ?", arguments: [id]).map(
                CatalogRows.book(from:)
            )
        }
    }

    /// Books by id, in the order of `ids` (unknown ids skipped).
    func books(ids: [Int]) throws -> [CatalogBook] {
        guard !ids.isEmpty else { return [] }
        if let loaded = loadedBooks.current { return ids.compactMap { loaded.indexOfID[$0].map { loaded.all[$0] } } }
        let byID = try database.read { db in
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ",")
            let rows = try Row.fetchAll(
                db,
                sql: CatalogRows.selectBooks + " WHERE id IN (\(marks))",
                arguments: StatementArguments(ids)
            )
            return Dictionary(rows.map(CatalogRows.book(from:)).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        }
        return ids.compactMap { byID[$0] }
    }

    /// Lookup by any ISBN form (10 or 13, hyphens allowed); nil when invalid or unknown.
    package func book(isbn: String) throws -> CatalogBook? {
        guard let parsed = ISBN(isbn) else { return nil }
        return try book(isbn13: parsed.isbn13)
    }
}

/// A value computed once on first use, thread-safe; concurrent first users wait for one load.
/// A failed load is not kept (the next use tries again).
final class OnceBox<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)

    /// The value if it was loaded already.
    var current: Value? { value.withLock { $0 } }

    /// The value, loaded by `load` while the others wait when none is yet.
    func get(_ load: () throws -> Value) throws -> Value {
        try value.withLock { value in
            if let value { return value }
            let loaded = try load()
            value = loaded
            return loaded
        }
    }
}
