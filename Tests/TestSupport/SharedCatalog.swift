import BooksTrackCatalog
import Foundation

/// The real goodbooks-10k catalog, opened once per test process. Read-only: every test target
/// shares it.
///
/// It lives in one directory for every test run of this user (`catalogDirectory`), reused while
/// its stamp matches the bundled data (`SQLiteCatalog.open` rebuilds it otherwise, and moves a new
/// build into place with one rename, so two processes may share it). Built per process, it took a
/// debug build up to a minute under a full parallel run, and every other test that asked for it
/// meanwhile waited in the lazy global's initialiser on one of the two cooperative threads: the
/// pool stalled and unrelated requests timed out after 30 s.
public enum SharedCatalog {
    /// A per-process scratch directory (an `XDG_CACHE_HOME` for child processes), removed at exit.
    public static let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("bts-tests-catalog-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")

    /// Where the shared catalog is built and reused across runs.
    public static let catalogDirectory = FileManager.default.temporaryDirectory
        .appendingPathComponent("bts-tests-catalog-cache-\(getuid())")

    public static let result: Result<SQLiteCatalog, any Error> = Result {
        // No global teardown hook otherwise.
        atexit { try? FileManager.default.removeItem(at: SharedCatalog.directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: catalogDirectory, withIntermediateDirectories: true)
        return try SQLiteCatalog.open(cacheDirectory: catalogDirectory)
    }

    public static func get() throws -> SQLiteCatalog { try result.get() }
}
