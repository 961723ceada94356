import BooksTrackCatalog
import Foundation

/// The real goodbooks-10k catalog, built once per test process (it takes a few seconds and ~40 MB)
/// in its own temp dir, removed when the process exits. Read-only: every test target shares it.
public enum SharedCatalog {
    public static let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("bts-tests-catalog-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")

    public static let result: Result<SQLiteCatalog, any Error> = Result {
        // No global teardown hook otherwise.
        atexit { try? FileManager.default.removeItem(at: SharedCatalog.directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try SQLiteCatalog.open(cacheDirectory: directory)
    }

    public static func get() throws -> SQLiteCatalog { try result.get() }
}
