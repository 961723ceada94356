import Foundation
import GRDB
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The on-disk response cache of one backend: `responses-<backend key>.sqlite` in the cache
/// directory (0700), one SQLite file (0600, GRDB `DatabaseQueue` in WAL mode, a busy timeout) that several
/// bts processes may read and write at once.
///
/// Keys are the method and the request target (`GET /v1/search/isbn?isbn=…`) with secrets masked;
/// the file is per backend, so no base URL (and no credential in one) is stored. Only bodies and a
/// few harmless response headers are kept (never `Authorization`, cookies or job tokens: job routes
/// and POSTs are never cached). Entries past their expiry stay (for `If-None-Match` and offline
/// answers) until evicted: when the file outgrows `maxBytes`, the least recently used go until the
/// entries hold at most `maxBytes` and number at most `maxEntries`. A corrupt or truncated file is deleted and started afresh; every other
/// failure is a miss (the cache is an optimization, never fatal).
package final class ResponseDiskCache: Sendable {
    /// What `summary()` tells.
    package struct Summary: Sendable, Hashable {
        package var entries: Int
        /// Body and header bytes held.
        package var bytes: Int
        /// Entries still fresh.
        package var fresh: Int
        /// The database file's size (with its WAL).
        package var fileBytes: Int
    }

    /// The response headers kept with a body: nothing that identifies the caller or its budget.
    static let keptHeaders: Set<String> = [
        "content-type", "etag", "cache-control", "last-modified", "x-ratelimit-class", "deprecation", "sunset", "link",
    ]

    /// The database file.
    package let fileURL: URL
    package let maxBytes: Int
    package let maxEntries: Int
    /// The open connection (nil until first use, and after a corrupt file was discarded).
    private let connection = Mutex<DatabaseQueue?>(nil)

    /// The cache of the backend named `backend` (a base URL, or `embedded`) in `directory`. Nothing
    /// is opened until first use.
    package init(directory: URL, backend: String, maxBytes: Int = 32 * 1024 * 1024, maxEntries: Int = 20_000) {
        self.fileURL = directory.appendingPathComponent("responses-\(CapabilitiesDiskCache.hash(backend)).sqlite")
        self.maxBytes = maxBytes
        self.maxEntries = maxEntries
    }

    /// The cache in `fileURL` (`cache clear --all`).
    package init(fileURL: URL, maxBytes: Int = 32 * 1024 * 1024, maxEntries: Int = 20_000) {
        self.fileURL = fileURL
        self.maxBytes = maxBytes
        self.maxEntries = maxEntries
    }

    /// The name the cache of `url` is kept under, as `bearerToken` (and the URL's credentials) see
    /// it: the capabilities cache's key (``CapabilitiesDiskCache/key(_:identity:)``: scheme and host
    /// lowercased, the path as given, and a digest of who asks, never the secret).
    package static func backendName(_ url: URL, bearerToken: String? = nil) -> String {
        CapabilitiesDiskCache.key(url, identity: CapabilitiesDiskCache.identity(bearerToken: bearerToken, url: url))
    }

    // MARK: - Reading and writing

    /// How stale an entry's "last used" may be before a hit writes it again: a hit is a read,
    /// not a write transaction, unless the entry was last marked used this long ago.
    static let lastUsedGranularity: TimeInterval = 600

    /// The stored response for `key` (fresh or not), marking it used at `now` (to the
    /// `lastUsedGranularity`).
    package func entry(for key: String, now: Date) -> Entry? {
        withDatabase { database -> Entry? in
            let found = try database.read { db in
                try Row.fetchOne(db, sql: "SELECT * FROM response WHERE key = ?", arguments: [key]).map(Self.entry)
            }
            guard var entry = found else { return nil }
            if now.timeIntervalSince(entry.lastUsedAt) >= Self.lastUsedGranularity {
                try database.write { db in
                    try db.execute(
                        sql: "UPDATE response SET lastUsedAt = ? WHERE key = ?",
                        arguments: [now.timeIntervalSince1970, key]
                    )
                }
                entry.lastUsedAt = now
            }
            return entry
        } ?? nil
    }

    /// Stores (or replaces) `entry`, then evicts the least recently used beyond the bounds.
    package func store(_ entry: Entry) {
        let size = entry.body.count + entry.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        guard size <= maxBytes else { return }
        _ = withDatabase { database in
            try database.write { db in
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO response (key, status, headers, body, etag, storedAt, expiresAt, lastUsedAt, size)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        entry.key, entry.status, Self.encode(entry.headers), entry.body, entry.etag,
                        entry.storedAt.timeIntervalSince1970, entry.expiresAt.timeIntervalSince1970,
                        entry.lastUsedAt.timeIntervalSince1970, size,
                    ]
                )
                // Evicting sorts every entry: only when the file outgrows the bound (its pages hold
                // at least the entries' bytes), not at every store, whose cost would grow with the
                // entries.
                let fileBytes =
                    try Int.fetchOne(
                        db,
                        sql: "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()"
                    ) ?? 0
                guard fileBytes > maxBytes else { return }
                try db.execute(
                    sql: """
                        DELETE FROM response WHERE key IN (
                            SELECT key FROM (
                                SELECT key, SUM(size) OVER w AS total, ROW_NUMBER() OVER w AS n FROM response
                                WINDOW w AS (ORDER BY lastUsedAt DESC, key)
                            ) WHERE total > ? OR n > ?)
                        """,
                    arguments: [maxBytes, maxEntries]
                )
            }
        }
    }

    /// A 304 said the stored body is still good: it is fresh again from `now` until `expiresAt`.
    package func revalidated(_ key: String, now: Date, expiresAt: Date) {
        _ = withDatabase { database in
            try database.write { db in
                try db.execute(
                    sql: "UPDATE response SET storedAt = ?, expiresAt = ?, lastUsedAt = ? WHERE key = ?",
                    arguments: [
                        now.timeIntervalSince1970, expiresAt.timeIntervalSince1970, now.timeIntervalSince1970, key,
                    ]
                )
            }
        }
    }

    // MARK: - The `cache` command

    /// Entries, bytes and file size (zeros when there is no file yet).
    package func summary(now: Date) -> Summary {
        let fileBytes = [fileURL.path, fileURL.path + "-wal"].reduce(0) { total, path in
            total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
        guard FileManager.default.fileExists(atPath: fileURL.path) else {
            return Summary(entries: 0, bytes: 0, fresh: 0, fileBytes: 0)
        }
        let counts =
            withDatabase { database in
                try database.read { db -> [Int] in
                    let row = try Row.fetchOne(
                        db,
                        sql:
                            "SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes, COALESCE(SUM(expiresAt > ?), 0) AS fresh FROM response",
                        arguments: [now.timeIntervalSince1970]
                    )
                    return [row?["n"] ?? 0, row?["bytes"] ?? 0, row?["fresh"] ?? 0]
                }
            } ?? [0, 0, 0]
        return Summary(entries: counts[0], bytes: counts[1], fresh: counts[2], fileBytes: fileBytes)
    }

    /// The entries, most recently used first (bodies left out; a damaged row is left out too).
    package func entries(limit: Int = 1_000) -> [Entry] {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return [] }
        return withDatabase { database in
            try database.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT key, status, headers, X'' AS body, etag, storedAt, expiresAt, lastUsedAt
                        FROM response ORDER BY lastUsedAt DESC, key LIMIT ?
                        """,
                    arguments: [limit]
                ).compactMap { try? Self.entry($0) }
            }
        } ?? []
    }

    /// Removes every entry; returns how many there were.
    @discardableResult
    package func clear() -> Int {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return 0 }
        return withDatabase { database in
            try database.write { db in
                try db.execute(sql: "DELETE FROM response")
                return db.changesCount
            }
        } ?? 0
    }

    // MARK: - The database

    /// Runs `body` on the open database (opening it first). A corrupt file is deleted (and the next
    /// use starts a new one). "Busy" (another process switching a new file to WAL, or holding the
    /// write lock past the busy timeout on a loaded machine) is tried again, 4 times in all, so that
    /// two processes writing at once both get their writes in; any other failure answers nil.
    private func withDatabase<T: Sendable>(_ body: (DatabaseQueue) throws -> T) -> T? {
        connection.withLock { (database: inout DatabaseQueue?) -> T? in
            for attempt in 1...4 {
                do {
                    let open: DatabaseQueue
                    if let existing = database {
                        open = existing
                    } else {
                        open = try Self.open(fileURL)
                        database = open
                    }
                    return try body(open)
                } catch let error as DatabaseError where Self.isCorruption(error) {
                    database = nil
                    Self.discard(fileURL)
                    return nil
                } catch let error as DatabaseError where Self.isBusy(error) && attempt < 4 {
                    usleep(useconds_t(50_000 * attempt))
                } catch {
                    return nil
                }
            }
            return nil
        }
    }

    static func isBusy(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    }

    static func isCorruption(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// Deletes the file with its WAL and shared memory.
    static func discard(_ file: URL) {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: file.path + suffix)
        }
    }

    /// Opens (creating) the file: directory 0700, file 0600 (SQLite gives its WAL and shared-memory
    /// files the database file's mode), WAL, a 5 s busy timeout, the table. A second process opening
    /// a new file while the first switches it to WAL is told "locked" at once: it tries again.
    static func open(_ file: URL) throws -> DatabaseQueue {
        let manager = FileManager.default
        try manager.createDirectory(
            at: file.deletingLastPathComponent(),
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        // O_EXCL, never FileManager.createFile: that one writes a temporary file and renames it
        // over the path, so a second process creating the file at the same moment replaced the
        // first one's database under its open connection (a write was lost).
        createExclusively(file.path)
        var config = Configuration()
        config.journalMode = .wal
        config.busyMode = .timeout(5)
        config.label = "bts-response-cache"
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        var attempt = 1
        while true {
            do {
                let database = try DatabaseQueue(path: file.path, configuration: config)
                // The table is made once: later opens only read the schema (no write transaction).
                if try database.read({ try $0.tableExists("response") }) { return database }
                try database.write { db in
                    try db.execute(
                        sql: """
                            CREATE TABLE IF NOT EXISTS response (
                                key TEXT PRIMARY KEY NOT NULL, status INTEGER NOT NULL, headers TEXT NOT NULL,
                                body BLOB NOT NULL, etag TEXT, storedAt REAL NOT NULL, expiresAt REAL NOT NULL,
                                lastUsedAt REAL NOT NULL, size INTEGER NOT NULL);
                            CREATE INDEX IF NOT EXISTS response_lastUsedAt ON response (lastUsedAt);
                            """
                    )
                }
                return database
            } catch let error as DatabaseError where isBusy(error) && attempt < 5 {
                usleep(useconds_t(20_000 * attempt))
                attempt += 1
            }
        }
    }

    /// Creates an empty file at `path`, mode 0600, unless one exists (`O_EXCL`: atomic).
    static func createExclusively(_ path: String) {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
    }

    /// The entry of a stored row; a row whose columns hold the wrong types (damaged bytes, another
    /// tool) throws `DamagedRow` (GRDB's non-throwing subscripts trapped on it).
    static func entry(_ row: Row) throws(DamagedRow) -> Entry {
        var columns: [String: StoredValue] = [:]
        for (name, value) in row {
            switch value.storage {
            case .null: columns[name] = .null
            case .int64(let number): columns[name] = .integer(number)
            case .double(let number): columns[name] = .real(number)
            case .string(let text): columns[name] = .text(text)
            case .blob(let bytes): columns[name] = .blob(bytes)
            }
        }
        return try entry(columns: columns)
    }
}
