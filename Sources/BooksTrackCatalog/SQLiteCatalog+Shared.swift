import Foundation
import Synchronization

extension SQLiteCatalog {
    /// The catalog opened in each cache directory, kept open until the process exits and reused by
    /// every later user there: the embedded backend at each start (`connect` back to it) and the
    /// shell's own uses (personal recommendations). Closing the read-only database gains nothing,
    /// and GRDB's close sets up Foundation's NotificationCenter at its first use, which every
    /// one-shot command would pay at its end.
    private static let opened = Mutex<[String: SQLiteCatalog]>([:])

    /// The bundled catalog in `cacheDirectory` (created if needed), opened once per process.
    /// Whether `shared(cacheDirectory:)` has opened the catalog of `cacheDirectory` in this process.
    static func isOpen(cacheDirectory: URL) -> Bool {
        opened.withLock { $0[cacheDirectory.path] != nil }
    }

    package static func shared(cacheDirectory: URL) throws -> SQLiteCatalog {
        try opened.withLock { opened in
            if let reused = opened[cacheDirectory.path] { return reused }
            try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
            let new = try SQLiteCatalog.open(cacheDirectory: cacheDirectory)
            opened[cacheDirectory.path] = new
            return new
        }
    }
}
