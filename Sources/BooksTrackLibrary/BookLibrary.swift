import Foundation
import GRDB

/// The user's library: one SQLite file (GRDB `DatabasePool`, WAL) that several bts processes may
/// write at once. Every save is one IMMEDIATE transaction; SQLite's busy timeout makes a second
/// writer wait instead of failing. Errors are `LibraryError` (plain words).
///
/// A *book* is one edition (keyed by ISBN-13, or by normalised title + first author when it has
/// no ISBN) with the user's `ReadingFields`; editions are grouped under their *work*; authors are
/// rows of their own. `library_fts` (FTS5) indexes title, authors, series, review/notes and tags.
public final class BookLibrary: Sendable {
    /// The database file.
    public let path: URL
    let pool: DatabasePool
    let today: @Sendable () -> BookDate

    /// How long a writer waits for another process's transaction before giving up with `.busy`.
    public static let busyTimeout: TimeInterval = 10

    /// Opens (creating when missing) the library at `path`: the directory is created 0700, the
    /// file 0600, then migrations run. `today` supplies "date added" for new books.
    public init(path: URL, today: @escaping @Sendable () -> BookDate = { BookDate.today() }) throws(LibraryError) {
        self.path = path
        self.today = today
        let file = path.path
        do {
            try BookLibrary.prepareFile(path)
            var config = Configuration()
            config.busyMode = .timeout(BookLibrary.busyTimeout)
            config.label = "bts-library"
            let pool = try Self.openPool(file, configuration: config)
            let migrator = BookLibrary.migrator
            if try pool.read({ try migrator.hasBeenSuperseded($0) }) { throw LibraryError.newerSchema(path: file) }
            try Self.migrate(pool, with: migrator)
            self.pool = pool
        } catch {
            throw LibraryError.wrap(error, path: file)
        }
    }

    /// Opens the pool. Its first open of a new file switches it to WAL, and SQLite answers a second
    /// opener at that moment "database is locked" without waiting for the busy timeout: that one
    /// tries again, a few times, 20-100 ms apart (seen: 2 of 25 pairs of opens in one process).
    static func openPool(_ file: String, configuration: Configuration) throws -> DatabasePool {
        for attempt in 1...5 {
            do {
                return try DatabasePool(path: file, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 5 {
                usleep(useconds_t(20_000 * attempt))
            }
        }
        return try DatabasePool(path: file, configuration: configuration)
    }

    /// Runs the migrations. Two processes opening a new library at once both start them; the one
    /// that loses the race fails ("table already exists", or a busy snapshot), and its next attempt
    /// finds them applied by the other (seen: 6 of 30 pairs of `bts -c 'library import …'`).
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
                try manager.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
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
            return try await pool.write(body)
        } catch {
            throw LibraryError.wrap(error, path: path.path)
        }
    }

    /// Runs a read, mapping errors.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(LibraryError) -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw LibraryError.wrap(error, path: path.path)
        }
    }
}
