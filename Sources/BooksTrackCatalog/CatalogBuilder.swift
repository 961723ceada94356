import BooksTrackSupport
import Foundation
import GRDB

/// Builds the catalog's SQLite database from its TSV resources, once per content: the content key
/// (schema, embedding and resource hash), the schema and rows, the build into a temporary file
/// renamed into place, and the stamp that gives the bundled resources' key without reading them.
enum CatalogBuilder {
    /// Bumped whenever the database schema changes (part of the content key).
    static let schemaVersion = 6

    /// The part of every content key that names this build's schema and embedding.
    static var keyPrefix: String { "v\(schemaVersion)-e\(HashingEmbedding.version)-" }

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

    /// Where the database built for `key` lives in `directory`.
    static func databaseURL(in directory: URL, key: String) -> URL {
        directory.appendingPathComponent("catalog-\(key).sqlite")
    }

    /// The database at `url`, read-only, when it is there and was built for `key`; else nil.
    static func built(at url: URL, key: String) -> DatabaseQueue? {
        guard FileManager.default.fileExists(atPath: url.path), let queue = try? openReadOnly(url),
            (try? storedKey(queue)) == key
        else { return nil }
        return queue
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

    /// The bundled resources' files (the catalog, then its shelves).
    static func bundledURLs() throws -> [URL] {
        [try CatalogResources.url(), try CatalogResources.url(CatalogResources.shelvesName)]
    }

    /// The bundled resources' content key from the stamp in `directory`, when they are the files it
    /// names and it was written by this schema and embedding (another build's stamp names its database).
    static func stampedKey(in directory: URL) -> String? {
        guard let urls = try? bundledURLs(), let key = CatalogResourceStamp.storedKey(for: urls, in: directory),
            key.hasPrefix(keyPrefix)
        else { return nil }
        return key
    }

    /// Remembers `key` as the bundled resources' content key in `directory` (best effort).
    static func stamp(key: String, in directory: URL) {
        guard let urls = try? bundledURLs() else { return }
        CatalogResourceStamp.store(key: key, for: urls, in: directory)
    }

    /// The bundled resources' content key: from the stamp, else by reading and hashing them; nil
    /// when they cannot be read.
    static func bundledKey(in directory: URL) -> String? {
        if let stamped = stampedKey(in: directory) { return stamped }
        guard let catalog = try? CatalogResources.data(),
            let shelves = try? CatalogResources.data(CatalogResources.shelvesName)
        else { return nil }
        return contentKey(for: catalog, shelves: shelves)
    }

    /// Builds `databaseURL(in: directory, key: key)` from the TSV bytes. The build goes to a unique
    /// temporary file that is atomically renamed into place, so concurrent openers never see a
    /// partial database; databases of other content are then removed.
    static func buildFile(catalogTSV: Data, shelvesTSV: Data?, key: String, in directory: URL) throws {
        let finalURL = databaseURL(in: directory, key: key)
        let tempURL = directory.appendingPathComponent("catalog-\(key).sqlite.\(UUID().uuidString).tmp")
        do {
            let (books, shelves) = try decode(catalogTSV: catalogTSV, shelvesTSV: shelvesTSV)
            var config = Configuration()
            config.journalMode = .default
            let builder = try DatabaseQueue(path: tempURL.path, configuration: config)
            try builder.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
            }
            try builder.write { db in try build(db, books: books, shelves: shelves, key: key) }
            try builder.close()
            guard rename(tempURL.path, finalURL.path) == 0 else {
                throw SQLiteCatalog.OpenError.rename(String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(at: tempURL)
            throw error
        }
        removeStaleFiles(in: directory, keeping: finalURL.lastPathComponent)
    }

    /// The catalog built in an in-memory database.
    static func buildInMemory(catalogTSV: Data, shelvesTSV: Data?, key: String) throws -> DatabaseQueue {
        let (books, shelves) = try decode(catalogTSV: catalogTSV, shelvesTSV: shelvesTSV)
        let queue = try DatabaseQueue()
        try queue.write { db in try build(db, books: books, shelves: shelves, key: key) }
        return queue
    }

    private static func decode(catalogTSV: Data, shelvesTSV: Data?) throws -> ([CatalogBook], ShelfTable?) {
        let books = try CatalogResourceTSV.decode(data: catalogTSV)
        let shelves = try shelvesTSV.map { data throws(ShelfResourceTSV.DecodeError) in
            try ShelfResourceTSV.decode(data: data)
        }
        return (books, shelves)
    }

    /// Best effort: removes catalogs built from other content (open readers keep their inode).
    static func removeStaleFiles(in directory: URL, keeping name: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for other in names where other.hasPrefix("catalog-") && other.hasSuffix(".sqlite") && other != name {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(other))
        }
    }

    /// Creates the schema and inserts every book with its vector, shelves and FTS row (one transaction).
    static func build(_ db: Database, books: [CatalogBook], shelves: ShelfTable?, key: String) throws {
        try db.execute(
            sql: """
                CREATE TABLE meta(key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                CREATE TABLE books(
                    id INTEGER PRIMARY KEY NOT NULL,
                    goodreads_book_id INTEGER NOT NULL,
                    goodreads_work_id INTEGER NOT NULL,
                    isbn10 TEXT, isbn13 TEXT,
                    title TEXT NOT NULL, original_title TEXT,
                    series TEXT, series_number REAL,
                    authors TEXT NOT NULL,
                    year INTEGER, language TEXT,
                    average_rating REAL NOT NULL, ratings_count INTEGER NOT NULL,
                    image_url TEXT, small_image_url TEXT,
                    vector BLOB NOT NULL,
                    shelves TEXT NOT NULL, shelf_vector BLOB NOT NULL);
                CREATE INDEX books_isbn13 ON books(isbn13);
                CREATE INDEX books_popularity ON books(id, ratings_count);
                CREATE VIRTUAL TABLE books_fts USING fts5(
                    title, original_title, series, authors,
                    tokenize = 'unicode61 remove_diacritics 2');
                CREATE VIRTUAL TABLE books_vocab USING fts5vocab(books_fts, 'col');
                """
        )
        let insertBook = try db.makeStatement(
            sql: """
                INSERT INTO books VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        )
        let insertFTS = try db.makeStatement(
            sql: "INSERT INTO books_fts(rowid, title, original_title, series, authors) VALUES (?, ?, ?, ?, ?)"
        )
        try createShelfNames(db, shelves?.names ?? [])
        for b in books {
            let vector = HashingEmbedding.embed(b)
            let bookShelves = shelves?.books[b.id] ?? []
            let shown = bookShelves.prefix(SQLiteCatalog.shownShelves).compactMap { shelves?.names[$0.shelf] }
            try insertBook.execute(arguments: [
                b.id, b.goodreadsBookID, b.goodreadsWorkID, b.isbn10, b.isbn13, b.title, b.originalTitle,
                b.series, b.seriesNumber, b.authors.joined(separator: CatalogRows.authorSeparator), b.year,
                b.language,
                b.averageRating, b.ratingsCount, b.imageURL, b.smallImageURL, CatalogRows.encodeVector(vector),
                shown.joined(separator: CatalogRows.authorSeparator), CatalogRows.encodeShelfVector(bookShelves),
            ])
            let base = CatalogFieldCleaning.series(inTitle: b.title).base
            try insertFTS.execute(arguments: [
                b.id, FTSQuery.indexed(base), b.originalTitle.map(FTSQuery.indexed), b.series.map(FTSQuery.indexed),
                FTSQuery.indexed(b.authors.joined(separator: ", ")),
            ])
        }
        try db.execute(
            sql: "INSERT INTO meta(key, value) VALUES ('content_key', ?), ('books', ?), ('dimension', ?)",
            arguments: [key, String(books.count), String(HashingEmbedding.dimension)]
        )
        try db.execute(sql: "INSERT INTO books_fts(books_fts) VALUES ('optimize')")
    }

    static func createShelfNames(_ db: Database, _ names: [String]) throws {
        try db.execute(sql: "CREATE TABLE shelf_names(id INTEGER PRIMARY KEY NOT NULL, name TEXT NOT NULL)")
        let insert = try db.makeStatement(sql: "INSERT INTO shelf_names VALUES (?, ?)")
        for (i, name) in names.enumerated() { try insert.execute(arguments: [i, name]) }
    }
}
