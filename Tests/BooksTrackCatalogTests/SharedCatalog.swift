import Foundation
import Testing

@testable import BooksTrackCatalog

/// One catalog per test process, built lazily (thread-safe `static let`) in its own temp dir.
enum SharedCatalog {
    static let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("bts-catalog-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")

    static let result: Result<SQLiteCatalog, any Error> = Result {
        // Remove the ~40 MB database when the test process exits (no global teardown hook otherwise).
        atexit { try? FileManager.default.removeItem(at: SharedCatalog.directory) }
        let catalog = try SQLiteCatalog.open(cacheDirectory: directory)
        print("[catalog] shared fixture: \(catalog.lastOpenStats)")
        return catalog
    }

    static func get() throws -> SQLiteCatalog { try result.get() }
}

/// A fresh temp directory for one test.
func makeTempDirectory(_ label: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("bts-catalog-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The first `count` books of the bundled catalog, as TSV bytes (small, fast fixtures).
func bundledSubset(_ count: Int) throws -> Data {
    let text = String(decoding: try SQLiteCatalog.bundledResource(), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(count + 1)
    return Data((lines.joined(separator: "\n") + "\n").utf8)
}
