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

    /// Bumped whenever the database schema changes (part of the content key).
    static let schemaVersion = 6

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
    let loadedBookVectors = OnceBox<BookVectors>()
    let loadedSpelling = OnceBox<SpellingVocabularies>()
    let queryCache = QueryCache<[Float]>()
    let rankingCache = QueryCache<[(id: Int, score: Float)]>()
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
    }

    /// The books in memory (loaded once, on first use).
    var books: Books {
        get throws {
            try loadedBooks.get {
                let all = try database.read { db in try Self.loadBooks(db) }
                var indexOfID: [Int: Int] = [:]
                indexOfID.reserveCapacity(all.count)
                for (i, b) in all.enumerated() { indexOfID[b.id] = i }
                return Books(
                    all: all,
                    indexOfID: indexOfID,
                    popularity: Self.popularity(ratingsCounts: all.map(\.ratingsCount))
                )
            }
        }
    }

    /// The popularity prior of each book: log(1 + ratings) / log(1 + the most ratings), in 0…1.
    static func popularity(ratingsCounts: [Int]) -> [Float] {
        let maxLog = log1p(Double(ratingsCounts.max() ?? 1))
        return ratingsCounts.map { Float(maxLog > 0 ? log1p(Double(max(0, $0))) / maxLog : 0) }
    }

    /// The vector matrix, rows in the order of `books.all` (loaded once, on first use).
    var vectors: VectorIndex {
        get throws {
            // The ids are read inside the loader, so that no call maps every book again.
            try loadedVectors.get {
                let ids = try books.all.map(\.id)
                return try database.read { db in try Self.loadVectors(db, ids: ids) }
            }
        }
    }

    /// Loads the books, vectors and shelf vectors now (a long-running server warms up in the background).
    /// With the sentence model installed, its weights and the book vectors too.
    package func preload() {
        _ = try? shelfVectors
        if semanticUnavailable == nil {
            _ = try? bookVectors
            _ = SentenceEncoder.shared()
        }
    }

    // MARK: - Opening

    /// The bundled cleaned catalog (`Resources/catalog.tsv`), or another bundled resource by name
    /// (`shelves`: `Resources/shelves.tsv`).
    package static func bundledResource(_ name: String = "catalog") throws -> Data {
        guard let data = FileManager.default.contents(atPath: try bundledResourceURL(name).path) else {
            throw OpenError.missingResource
        }
        return data
    }

    /// Opens the bundled catalog, building its database in `cacheDirectory` once (reused while the
    /// resource, schema and embedding are unchanged). When the resource is the same file as last
    /// time (`CatalogResourceStamp`), its database is opened without reading the resource.
    package static func open(cacheDirectory: URL) throws -> SQLiteCatalog {
        let urls = [try bundledResourceURL(), try bundledResourceURL(shelvesResourceName)]
        // A stamp written by a build of another schema or embedding names that build's database.
        if let key = CatalogResourceStamp.storedKey(for: urls, in: cacheDirectory), key.hasPrefix(keyPrefix),
            let catalog = try? openBuilt(cacheDirectory: cacheDirectory, key: key, start: Date())
        {
            return catalog
        }
        let catalog = try open(
            cacheDirectory: cacheDirectory,
            catalogTSV: try bundledResource(),
            shelvesTSV: try bundledResource(shelvesResourceName)
        )
        CatalogResourceStamp.store(key: catalog.lastOpenStats.contentKey, for: urls, in: cacheDirectory)
        return catalog
    }

    /// Whether `open(cacheDirectory:)` would find the bundled catalog's database built (or open
    /// in this process); false when it would build it first.
    package static func isBuilt(cacheDirectory: URL) -> Bool {
        if isOpen(cacheDirectory: cacheDirectory) { return true }
        guard let urls = try? [bundledResourceURL(), bundledResourceURL(shelvesResourceName)] else { return false }
        let key: String
        if let stored = CatalogResourceStamp.storedKey(for: urls, in: cacheDirectory), stored.hasPrefix(keyPrefix) {
            key = stored
        } else if let catalog = try? bundledResource(), let shelves = try? bundledResource(shelvesResourceName) {
            key = contentKey(for: catalog, shelves: shelves)
        } else {
            return false
        }
        return FileManager.default.fileExists(
            atPath: cacheDirectory.appendingPathComponent("catalog-\(key).sqlite").path
        )
    }

    /// The database already built for `key` in `cacheDirectory`, or nil.
    static func openBuilt(cacheDirectory: URL, key: String, start: Date) throws -> SQLiteCatalog? {
        let finalURL = cacheDirectory.appendingPathComponent("catalog-\(key).sqlite")
        guard FileManager.default.fileExists(atPath: finalURL.path),
            let queue = try? openReadOnly(finalURL), (try? storedKey(queue)) == key
        else { return nil }
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
    /// `cacheDirectory/catalog-<content key>.sqlite` if it does not exist yet. The build goes to a
    /// unique temporary file that is atomically renamed into place, so concurrent openers never
    /// see a partial database.
    package static func open(cacheDirectory: URL, catalogTSV: Data, shelvesTSV: Data? = nil) throws -> SQLiteCatalog {
        let start = Date()
        let key = contentKey(for: catalogTSV, shelves: shelvesTSV)
        try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        let finalURL = cacheDirectory.appendingPathComponent("catalog-\(key).sqlite")
        if let built = try openBuilt(cacheDirectory: cacheDirectory, key: key, start: start) { return built }

        let buildStart = Date()
        let tempURL = cacheDirectory.appendingPathComponent("catalog-\(key).sqlite.\(UUID().uuidString).tmp")
        do {
            let books = try CatalogResourceTSV.decode(data: catalogTSV)
            let shelves = try shelvesTSV.map { data throws(ShelfResourceTSV.DecodeError) in
                try ShelfResourceTSV.decode(data: data)
            }
            var config = Configuration()
            config.journalMode = .default
            let builder = try DatabaseQueue(path: tempURL.path, configuration: config)
            try builder.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
            }
            try builder.write { db in try build(db, books: books, shelves: shelves, key: key) }
            try builder.close()
            guard rename(tempURL.path, finalURL.path) == 0 else {
                throw OpenError.rename(String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(at: tempURL)
            throw error
        }
        let buildSeconds = Date().timeIntervalSince(buildStart)
        removeStaleFiles(in: cacheDirectory, keeping: finalURL.lastPathComponent)
        let stats = CatalogOpenStats(
            outcome: .built,
            contentKey: key,
            databasePath: finalURL.path,
            buildSeconds: buildSeconds,
            loadSeconds: 0,
            totalSeconds: 0
        )
        return try SQLiteCatalog(database: try openReadOnly(finalURL), stats: stats, start: start)
    }

    /// Builds the catalog in an in-memory database (tests, or when no cache directory is writable).
    package static func openInMemory(catalogTSV: Data, shelvesTSV: Data? = nil) throws -> SQLiteCatalog {
        let start = Date()
        let key = contentKey(for: catalogTSV, shelves: shelvesTSV)
        let books = try CatalogResourceTSV.decode(data: catalogTSV)
        let shelves = try shelvesTSV.map { data throws(ShelfResourceTSV.DecodeError) in
            try ShelfResourceTSV.decode(data: data)
        }
        let queue = try DatabaseQueue()
        try queue.write { db in try build(db, books: books, shelves: shelves, key: key) }
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

    /// `v<schema>-e<embedding>-<FNV-1a 64 of the resource and the shelves resource, hex>`.
    static func contentKey(for data: Data, shelves: Data? = nil) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in [data, shelves ?? Data()] {
            part.withUnsafeBytes { bytes in
                for byte in bytes {
                    hash ^= UInt64(byte)
                    hash = hash &* 0x0000_0100_0000_01b3
                }
            }
        }
        let hex = String(hash, radix: 16)
        return keyPrefix + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The part of every content key that names this build's schema and embedding.
    static var keyPrefix: String { "v\(schemaVersion)-e\(HashingEmbedding.version)-" }

    static func openReadOnly(_ url: URL) throws -> DatabaseQueue {
        var config = Configuration()
        config.readonly = true
        config.label = "BooksTrackCatalog"
        return try DatabaseQueue(path: url.path, configuration: config)
    }

    static func storedKey(_ queue: DatabaseQueue) throws -> String? {
        try queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'content_key'") }
    }

    /// Best effort: removes catalogs built from other content (open readers keep their inode).
    static func removeStaleFiles(in directory: URL, keeping name: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for other in names where other.hasPrefix("catalog-") && other.hasSuffix(".sqlite") && other != name {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(other))
        }
    }

    // MARK: - Lookups

    package func book(isbn13: String) throws -> CatalogBook? {
        let digits = isbn13.filter { $0.isASCII && $0.isNumber }
        guard digits.count == 13 else { return nil }
        return try database.read { db in
            try Row.fetchOne(db, sql: Self.selectBooks + " WHERE isbn13 = ? ORDER BY id LIMIT 1", arguments: [digits])
                .map(Self.book(from:))
        }
    }

    package func book(id: Int) throws -> CatalogBook? {
        if let loaded = loadedBooks.current { return loaded.indexOfID[id].map { loaded.all[$0] } }
        return try database.read { db in
            try Row.fetchOne(db, sql: Self.selectBooks + " WHERE id = ?", arguments: [id]).map(Self.book(from:))
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
                sql: Self.selectBooks + " WHERE id IN (\(marks))",
                arguments: StatementArguments(ids)
            )
            return Dictionary(rows.map(Self.book(from:)).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
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
