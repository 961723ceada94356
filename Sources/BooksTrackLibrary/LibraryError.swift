import Foundation
import GRDB

/// Everything that can go wrong with the library, worded for the user (no SQLite text, no file bytes).
package enum LibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The directory or file could not be created or opened (`reason` is plain words).
    case cannotOpen(path: String, reason: String)
    /// The file exists but is not a SQLite database (or is damaged).
    case notALibrary(path: String)
    /// The file was written by a newer bts (it has migrations this one does not know).
    case newerSchema(path: String)
    /// The file opens but a stored value cannot be read as what it should be (a BLOB or NULL in a
    /// TEXT column: damaged bytes, or another tool wrote it).
    case damaged(path: String)
    /// An export left out `count` books of a damaged library (it wrote the others).
    case unreadableBooks(count: Int, path: String)
    /// Another process held the library longer than the busy timeout.
    case busy
    /// A write found `file` (the library, its `-shm` or `-wal` file, or its directory) read-only.
    case readOnly(file: String)
    /// A storage failure during a query or a save (disk full, read-only file, I/O error).
    case storage(String)
    /// No book matches the reference.
    case notFound(String)
    /// A value the user gave is out of range (`message` says which and why).
    case invalidValue(String)
    /// An import file could not be read at all (not UTF-8, no header, not a known export).
    case unreadableFile(String)

    package var description: String { message }

    package var message: String {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open the library at \(path): \(reason)"
        case .notALibrary(let path): return "\(path) is not a bts library (not a SQLite database, or damaged)"
        case .newerSchema(let path):
            return "the library at \(path) was written by a newer bts; update bts to use it"
        case .damaged(let path):
            return "the library at \(path) is damaged (a stored value has the wrong type): 'library export FILE' saves "
                + "the books that can still be read, \(Self.checkAdvice(path))"
        case .unreadableBooks(let count, let path):
            let books = count == 1 ? "1 book could not be read and was" : "\(count) books could not be read and were"
            return "\(books) left out of the export: the library at \(path) is damaged, \(Self.checkAdvice(path))"
        case .busy:
            return
                "the library is busy: another program has been writing to it for \(Int(BookLibrary.busyTimeout)) s; try again"
        case .readOnly(let file):
            return "the library cannot be written: \(file) is read-only (chmod u+w \(file) allows it)"
        case .storage(let what): return "the library could not be read or written: \(what)"
        case .notFound(let ref): return "no book in the library matches '\(ref)'"
        case .invalidValue(let message): return message
        case .unreadableFile(let message): return message
        }
    }

    /// The first of the library's files (its directory, the file, its `-wal` and `-shm`) the
    /// process cannot write: a leftover 0400 `-shm` kept writes failing after the file was made writable.
    static func readOnlyFile(of path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        for file in [path, path + "-wal", path + "-shm"] where access(file, F_OK) == 0 && access(file, W_OK) != 0 {
            return file
        }
        return access(directory, W_OK) != 0 ? directory : path
    }

    /// How to check a file suspected of damage.
    static func checkAdvice(_ path: String) -> String {
        "and 'sqlite3 \(path) \"PRAGMA integrity_check\"' checks the file"
    }

    /// Maps a GRDB/SQLite error to plain words.
    static func wrap(_ error: any Error, path: String) -> LibraryError {
        if let own = error as? LibraryError { return own }
        if error is RowDecodingError { return .damaged(path: path) }
        guard let db = error as? DatabaseError else { return .storage("unexpected error") }
        switch db.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: return .notALibrary(path: path)
        case .SQLITE_BUSY, .SQLITE_LOCKED: return .busy
        case .SQLITE_FULL: return .storage(ioFailure(storageFacts(path: path), full: true))
        case .SQLITE_READONLY: return .readOnly(file: readOnlyFile(of: path))
        case .SQLITE_CANTOPEN: return .cannotOpen(path: path, reason: "the file cannot be opened")
        case .SQLITE_PERM, .SQLITE_AUTH: return .cannotOpen(path: path, reason: "permission denied")
        case .SQLITE_IOERR: return .storage(ioFailure(storageFacts(path: path)))
        case .SQLITE_CONSTRAINT: return .storage("a constraint was violated")
        default: return .storage("SQLite error \(db.resultCode.rawValue)")
        }
    }
}
