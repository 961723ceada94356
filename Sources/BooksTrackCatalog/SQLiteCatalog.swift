import BooksTrackContract
import Foundation
import GRDB

/// How `SQLiteCatalog` was opened (for the cold-start benchmark; figures are printed, never asserted).
public struct CatalogOpenStats: Sendable, Hashable, CustomStringConvertible {
    public enum Outcome: String, Sendable, Hashable {
        /// The database file was built from the resource by this open.
        case built
        /// An existing database file with the same content key was reused.
        case reused
        /// Built in memory (tests).
        case inMemory
    }

    public var outcome: Outcome
    /// Content key: schema version, embedding version and hash of the resource.
    public var contentKey: String
    /// Path of the database file (nil in memory).
    public var databasePath: String?
    /// Seconds spent parsing the resource and building the database (0 when reused).
    public var buildSeconds: Double
    /// Seconds spent loading books and vectors into memory.
    public var loadSeconds: Double
    /// Wall time of the whole open.
    public var totalSeconds: Double

    public var description: String {
        let f = { (s: Double) in String(format: "%.3fs", s) }
        return "\(outcome.rawValue) key=\(contentKey) build=\(f(buildSeconds)) load=\(f(loadSeconds)) total=\(f(totalSeconds))"
    }
}

/// The goodbooks-10k catalog: SQLite (GRDB) with an FTS5 index for text search and an in-memory
/// matrix of hashed embeddings (`HashingEmbedding`) for semantic and similar-book search.
/// Read-only once opened, so it is safe to share across tasks.
public final class SQLiteCatalog: CatalogQuerying {
    /// Errors opening the catalog.
    public enum OpenError: Error, Sendable, CustomStringConvertible {
        case missingResource
        case badVector(id: Int)
        case rename(String)

        public var description: String {
            switch self {
            case .missingResource: return "the bundled catalog.tsv resource is missing"
            case .badVector(let id): return "book \(id) has a malformed vector"
            case .rename(let message): return "cannot move the built catalog into place: \(message)"
            }
        }
    }

    /// Bumped whenever the database schema changes (part of the content key).
    static let schemaVersion = 2

    let database: DatabaseQueue
    /// All books, ordered by id.
    let books: [CatalogBook]
    let indexOfID: [Int: Int]
    let idOfISBN13: [String: Int]
    let vectors: VectorIndex
    /// Popularity prior in 0…1 per vector row (log ratings count / log max).
    let popularity: [Float]

    /// How this instance was opened.
    public let lastOpenStats: CatalogOpenStats

    public var count: Int { books.count }

    init(database: DatabaseQueue, stats: CatalogOpenStats, start: Date) throws {
        let loadStart = Date()
        let (books, vectorValues) = try database.read { db in try Self.loadAll(db) }
        self.database = database
        self.books = books
        var indexOfID: [Int: Int] = [:]
        var idOfISBN13: [String: Int] = [:]
        for (i, b) in books.enumerated() {
            indexOfID[b.id] = i
            if let isbn = b.isbn13, idOfISBN13[isbn] == nil { idOfISBN13[isbn] = b.id }
        }
        self.indexOfID = indexOfID
        self.idOfISBN13 = idOfISBN13
        self.vectors = VectorIndex(dimension: HashingEmbedding.dimension, ids: books.map(\.id), values: vectorValues)
        let maxLog = log1p(Double(books.map(\.ratingsCount).max() ?? 1))
        self.popularity = books.map { Float(maxLog > 0 ? log1p(Double(max(0, $0.ratingsCount))) / maxLog : 0) }
        var stats = stats
        stats.loadSeconds = Date().timeIntervalSince(loadStart)
        stats.totalSeconds = Date().timeIntervalSince(start)
        self.lastOpenStats = stats
    }

    // MARK: - Opening

    /// The bundled cleaned catalog (`Resources/catalog.tsv`).
    public static func bundledResource() throws -> Data {
        guard let url = Bundle.module.url(forResource: "catalog", withExtension: "tsv", subdirectory: "Resources")
            ?? Bundle.module.url(forResource: "catalog", withExtension: "tsv"),
            let data = FileManager.default.contents(atPath: url.path)
        else { throw OpenError.missingResource }
        return data
    }

    /// Opens the bundled catalog, building its database in `cacheDirectory` once (reused while the
    /// resource, schema and embedding are unchanged).
    public static func open(cacheDirectory: URL) throws -> SQLiteCatalog {
        try open(cacheDirectory: cacheDirectory, catalogTSV: try bundledResource())
    }

    /// Opens a catalog from TSV bytes (the `catalog.tsv` format), building
    /// `cacheDirectory/catalog-<content key>.sqlite` if it does not exist yet. The build goes to a
    /// unique temporary file that is atomically renamed into place, so concurrent openers never
    /// see a partial database.
    public static func open(cacheDirectory: URL, catalogTSV: Data) throws -> SQLiteCatalog {
        let start = Date()
        let key = contentKey(for: catalogTSV)
        try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        let finalURL = cacheDirectory.appendingPathComponent("catalog-\(key).sqlite")

        if FileManager.default.fileExists(atPath: finalURL.path),
            let queue = try? openReadOnly(finalURL), (try? storedKey(queue)) == key
        {
            let stats = CatalogOpenStats(
                outcome: .reused, contentKey: key, databasePath: finalURL.path,
                buildSeconds: 0, loadSeconds: 0, totalSeconds: 0)
            return try SQLiteCatalog(database: queue, stats: stats, start: start)
        }

        let buildStart = Date()
        let tempURL = cacheDirectory.appendingPathComponent("catalog-\(key).sqlite.\(UUID().uuidString).tmp")
        do {
            let books = try CatalogResourceTSV.decode(data: catalogTSV)
            var config = Configuration()
            config.journalMode = .default
            let builder = try DatabaseQueue(path: tempURL.path, configuration: config)
            try builder.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
            }
            try builder.write { db in try build(db, books: books, key: key) }
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
            outcome: .built, contentKey: key, databasePath: finalURL.path,
            buildSeconds: buildSeconds, loadSeconds: 0, totalSeconds: 0)
        return try SQLiteCatalog(database: try openReadOnly(finalURL), stats: stats, start: start)
    }

    /// Builds the catalog in an in-memory database (tests, or when no cache directory is writable).
    public static func openInMemory(catalogTSV: Data) throws -> SQLiteCatalog {
        let start = Date()
        let key = contentKey(for: catalogTSV)
        let books = try CatalogResourceTSV.decode(data: catalogTSV)
        let queue = try DatabaseQueue()
        try queue.write { db in try build(db, books: books, key: key) }
        let stats = CatalogOpenStats(
            outcome: .inMemory, contentKey: key, databasePath: nil,
            buildSeconds: Date().timeIntervalSince(start), loadSeconds: 0, totalSeconds: 0)
        return try SQLiteCatalog(database: queue, stats: stats, start: start)
    }

    /// `v<schema>-e<embedding>-<FNV-1a 64 of the resource, hex>`.
    static func contentKey(for data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "v\(schemaVersion)-e\(HashingEmbedding.version)-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

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

    public func book(isbn13: String) throws -> CatalogBook? {
        let digits = isbn13.filter { $0.isASCII && $0.isNumber }
        guard let id = idOfISBN13[digits] else { return nil }
        return try book(id: id)
    }

    public func book(id: Int) throws -> CatalogBook? {
        indexOfID[id].map { books[$0] }
    }

    /// Lookup by any ISBN form (10 or 13, hyphens allowed); nil when invalid or unknown.
    public func book(isbn: String) throws -> CatalogBook? {
        guard let parsed = ISBN(isbn) else { return nil }
        return try book(isbn13: parsed.isbn13)
    }
}
