import Foundation
import GRDB
import Synchronization

/// The user's library: one SQLite file (GRDB `DatabasePool`, WAL) that several bts processes may
/// write at once. Every save is one IMMEDIATE transaction; SQLite's busy timeout makes a second
/// writer wait instead of failing. Errors are `LibraryError` (plain words).
///
/// A *book* is one edition (keyed by ISBN-13, or by normalised title + first author when it has
/// no ISBN) with the user's `ReadingFields`; editions are grouped under their *work*; authors are
/// rows of their own. `library_fts` (FTS5) indexes title, authors, series, review/notes and tags.
package final class BookLibrary: Sendable {
    /// The database file.
    package let path: URL
    /// Reads go here: a read-only pool when the file was already a complete library in WAL mode
    /// (opening a writable pool takes the write lock, so a foreign writer blocked even `library
    /// list`, and a read-only file could not be listed), else the writable pool.
    let readers: DatabasePool
    /// Writes go here; opened on the first write when `readers` is read-only.
    private let writers: Mutex<DatabasePool?>
    private let configuration: Configuration
    let today: @Sendable () -> BookDate

    /// How long a writer waits for another process's transaction before giving up with `.busy`.
    package static let busyTimeout: TimeInterval = 5

    /// Opens (creating when missing) the library at `path`: the directory is created 0700, the
    /// file 0600, then migrations run. `today` supplies "date added" for new books.
    package init(path: URL, today: @escaping @Sendable () -> BookDate = { BookDate.today() }) throws(LibraryError) {
        self.path = path
        self.today = today
        let file = path.path
        var config = Configuration()
        config.busyMode = .timeout(BookLibrary.busyTimeout)
        config.label = "bts-library"
        configuration = config
        do {
            try BookLibrary.prepareFile(path)
            if let readers = try Self.openForReading(file, configuration: config) {
                self.readers = readers
                writers = Mutex(nil)
            } else {
                let pool = try Self.openWritable(file, configuration: config)
                self.readers = pool
                writers = Mutex(pool)
            }
        } catch {
            throw LibraryError.wrap(error, path: file)
        }
    }

    /// A read-only pool on a file that is already a migrated library in WAL mode (nil when it is
    /// not, or cannot be opened so: the writable pool then says why).
    static func openForReading(_ file: String, configuration: Configuration) throws -> DatabasePool? {
        guard isWAL(file) else { return nil }
        var readOnly = configuration
        readOnly.readonly = true
        guard let pool = try? DatabasePool(path: file, configuration: readOnly) else { return nil }
        let migrator = BookLibrary.migrator
        guard
            let (superseded, complete) = try? pool.read({
                (try migrator.hasBeenSuperseded($0), try migrator.hasCompletedMigrations($0))
            })
        else { return nil }
        if superseded { throw LibraryError.newerSchema(path: file) }
        return complete ? pool : nil
    }

    /// Whether the file's header says WAL (bytes 18 and 19 are 2: https://sqlite.org/fileformat.html).
    static func isWAL(_ file: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: file) else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 20), header.count == 20 else { return false }
        return header[header.startIndex + 18] == 2 && header[header.startIndex + 19] == 2
    }

    /// The writable pool, migrated (a newer file is refused).
    static func openWritable(_ file: String, configuration: Configuration) throws -> DatabasePool {
        let pool = try openPool(file, configuration: configuration)
        let migrator = BookLibrary.migrator
        if try pool.read({ try migrator.hasBeenSuperseded($0) }) { throw LibraryError.newerSchema(path: file) }
        if try !pool.read({ try migrator.hasCompletedMigrations($0) }) { try migrate(pool, with: migrator) }
        return pool
    }

    /// Opens the pool. Its first open of a new file switches it to WAL, and SQLite answers a second
    /// opener at that moment "database is locked" without waiting for the busy timeout: that one
    /// tries again, 20-100 ms apart, as long as the busy timeout lasts (one deadline for all the
    /// attempts, so a foreign writer's lock is not waited out once per attempt).
    static func openPool(_ file: String, configuration: Configuration) throws -> DatabasePool {
        let deadline = Date(timeIntervalSinceNow: busyTimeout)
        var attempt = 0
        while true {
            do {
                return try DatabasePool(path: file, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                attempt += 1
                usleep(useconds_t(20_000 * min(attempt, 5)))
            }
        }
    }

    /// Runs the migrations. Two processes opening a new library at once both start them; the one
    /// that loses the race fails ("table already exists", or a busy snapshot), and its next attempt
    /// finds them applied by the other.
    static func migrate(_ pool: DatabasePool, with migrator: DatabaseMigrator) throws {
        for attempt in 1...5 {
            do {
                try migrator.migrate(pool)
                return
            } catch {
                if try pool.read({ try migrator.hasCompletedMigrations($0) }) { return }
                if attempt == 5 { throw error }
            }
        }
    }

    /// Creates the directory (0700) and an empty file (0600) when they do not exist yet.
    static func prepareFile(_ path: URL) throws(LibraryError) {
        let manager = FileManager.default
        let dir = path.deletingLastPathComponent()
        var isDir: ObjCBool = false
        if manager.fileExists(atPath: dir.path, isDirectory: &isDir) {
            guard isDir.boolValue else { throw .cannotOpen(path: path.path, reason: "\(dir.path) is not a directory") }
        } else {
            do {
                try manager.createDirectory(
                    at: dir,
                    withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700]
                )
            } catch {
                throw .cannotOpen(path: path.path, reason: "cannot create the directory \(dir.path)")
            }
        }
        guard !manager.fileExists(atPath: path.path) else { return }
        let fd = open(path.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
        } else if errno != EEXIST {
            throw .cannotOpen(path: path.path, reason: errno == EACCES ? "permission denied" : "cannot create the file")
        }
    }

    /// Runs a write transaction, mapping errors.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(LibraryError) -> T {
        do {
            return try await writer().write(body)
        } catch {
            throw LibraryError.wrap(error, path: path.path)
        }
    }

    /// The writable pool, opened now when reads did not need it.
    private func writer() throws -> DatabasePool {
        try writers.withLock { pool in
            if let pool { return pool }
            let opened = try Self.openWritable(path.path, configuration: configuration)
            pool = opened
            return opened
        }
    }
}
