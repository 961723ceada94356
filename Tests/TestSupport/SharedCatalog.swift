import BooksTrackCatalog
import Foundation

/// The real goodbooks-10k catalog, opened once per test process. Read-only: every test target
/// shares it, and so do the `bts` processes the tests start (`seed(cacheHome:)`).
///
/// `scripts/test` builds it before the tests run (`BTS_TEST_CATALOG_DIR`), so that no test waits
/// for a build: a build in the middle of a parallel run holds one of the cooperative pool's
/// threads (as many as cores) for as long as it takes, and every other test waits with it.
/// Without that variable it lives in one directory per user in the temporary directory, built at
/// the first use and reused while its stamp matches the bundled data (`SQLiteCatalog.open`
/// rebuilds it otherwise, and moves a new build into place with one rename, so two processes may
/// share it).
package enum SharedCatalog {
    /// A per-process scratch directory (an `XDG_CACHE_HOME` for child processes), removed at exit.
    package static let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("bts-tests-catalog-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")

    /// Where the shared catalog is built and reused across runs: `$BTS_TEST_CATALOG_DIR` when set.
    package static let catalogDirectory: URL = {
        if let prepared = ProcessInfo.processInfo.environment["BTS_TEST_CATALOG_DIR"], !prepared.isEmpty {
            return URL(fileURLWithPath: prepared, isDirectory: true)
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent("bts-tests-catalog-cache-\(getuid())")
    }()

    package static let result: Result<SQLiteCatalog, any Error> = Result {
        // No global teardown hook otherwise.
        atexit { try? FileManager.default.removeItem(at: SharedCatalog.directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: catalogDirectory, withIntermediateDirectories: true)
        let catalog = try SQLiteCatalog.open(cacheDirectory: catalogDirectory)
        try seed(cacheHome: directory, from: catalog)
        // Its books, vectors and the sentence model load at their first use; loaded now on a
        // thread of their own, no test holds a pool thread while they load.
        Thread.detachNewThread { catalog.preload() }
        return catalog
    }

    package static func get() throws -> SQLiteCatalog { try result.get() }

    /// Puts the shared catalog into `cacheHome` (a child's `XDG_CACHE_HOME`), where `bts` looks
    /// for its catalog (`cacheHome/bts/`), so that the child opens it instead of building one of
    /// its own (seconds of CPU each). Returns `cacheHome`.
    @discardableResult
    package static func seed(cacheHome: URL) throws -> URL {
        try link(into: cacheHome.appendingPathComponent("bts", isDirectory: true), from: try get())
        return cacheHome
    }

    /// Puts the shared catalog into `directory` (a `bts serve --cache-dir`) as a symbolic link
    /// beside a copy of its stamp.
    package static func link(into directory: URL) throws {
        try link(into: directory, from: try get())
    }

    private static func seed(cacheHome: URL, from catalog: SQLiteCatalog) throws {
        try link(into: cacheHome.appendingPathComponent("bts", isDirectory: true), from: catalog)
    }

    private static func link(into target: URL, from catalog: SQLiteCatalog) throws {
        let manager = FileManager.default
        guard let path = catalog.lastOpenStats.databasePath else { return }
        let database = URL(fileURLWithPath: path)
        try manager.createDirectory(at: target, withIntermediateDirectories: true)
        let link = target.appendingPathComponent(database.lastPathComponent)
        if (try? manager.destinationOfSymbolicLink(atPath: link.path)) == nil, !manager.fileExists(atPath: link.path) {
            try manager.createSymbolicLink(at: link, withDestinationURL: database)
        }
        let stamp = database.deletingLastPathComponent().appendingPathComponent("catalog-resource.stamp")
        let stampCopy = target.appendingPathComponent(stamp.lastPathComponent)
        if manager.fileExists(atPath: stamp.path), !manager.fileExists(atPath: stampCopy.path) {
            try? manager.copyItem(at: stamp, to: stampCopy)
        }
    }
}
