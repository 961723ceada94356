import Foundation
import GRDB

/// Everything that can go wrong with the library, worded for the user (no SQLite text, no file bytes).
public enum LibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The directory or file could not be created or opened (`reason` is plain words).
    case cannotOpen(path: String, reason: String)
    /// The file exists but is not a SQLite database (or is damaged).
    case notALibrary(path: String)
    /// The file was written by a newer bts (it has migrations this one does not know).
    case newerSchema(path: String)
    /// Another process held the library longer than the busy timeout.
    case busy
    /// A storage failure during a query or a save (disk full, read-only file, I/O error).
    case storage(String)
    /// No book matches the reference.
    case notFound(String)
    /// A value the user gave is out of range (`message` says which and why).
    case invalidValue(String)
    /// An import file could not be read at all (not UTF-8, no header, not a known export).
    case unreadableFile(String)

    public var description: String { message }

    public var message: String {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open the library at \(path): \(reason)"
        case .notALibrary(let path): return "\(path) is not a bts library (not a SQLite database, or damaged)"
        case .newerSchema(let path):
            return "the library at \(path) was written by a newer bts; update bts to use it"
        case .busy: return "the library is busy (another bts is writing to it); try again"
        case .storage(let what): return "the library could not be read or written: \(what)"
        case .notFound(let ref): return "no book in the library matches '\(ref)'"
        case .invalidValue(let message): return message
        case .unreadableFile(let message): return message
        }
    }

    /// Maps a GRDB/SQLite error to plain words.
    static func wrap(_ error: any Error, path: String) -> LibraryError {
        if let own = error as? LibraryError { return own }
        guard let db = error as? DatabaseError else { return .storage("unexpected error") }
        switch db.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: return .notALibrary(path: path)
        case .SQLITE_BUSY, .SQLITE_LOCKED: return .busy
        case .SQLITE_FULL: return .storage("the disk is full")
        case .SQLITE_READONLY: return .storage("the file is read-only")
        case .SQLITE_CANTOPEN: return .cannotOpen(path: path, reason: "the file cannot be opened")
        case .SQLITE_PERM, .SQLITE_AUTH: return .cannotOpen(path: path, reason: "permission denied")
        case .SQLITE_IOERR: return .storage("an I/O error")
        case .SQLITE_CONSTRAINT: return .storage("a constraint was violated")
        default: return .storage("SQLite error \(db.resultCode.rawValue)")
        }
    }
}
