import Foundation
import GRDB
import Testing

@testable import BooksTrackCatalog

/// The bundled resource's content key is reused only while the resource is the same file.
@Suite(.onWorkThreads) struct ResourceStampTests {
    /// The resource found beside the executable is the file `Bundle.module` finds.
    @Test func theResourceBesideTheExecutableIsTheBundlesOne() throws {
        let fast = try CatalogResources.url()
        let bundled = try CatalogResources.moduleBundleURL()
        #expect(
            fast.resolvingSymlinksInPath().standardizedFileURL.path
                == bundled.resolvingSymlinksInPath().standardizedFileURL.path
        )
        #expect(fast.lastPathComponent == "catalog.tsv")
        let directory = try #require(CatalogResources.executableDirectory())
        #expect(fast.path.hasPrefix(directory + "/"), "found by the stat beside the executable")
    }

    @Test func keyIsReusedUntilTheFileChanges() throws {
        let dir = try makeTempDirectory("stamp")
        defer { try? FileManager.default.removeItem(at: dir) }
        let resource = dir.appendingPathComponent("catalog.tsv")
        try Data("a\tb\n".utf8).write(to: resource)

        #expect(CatalogResourceStamp.storedKey(for: [resource], in: dir) == nil)
        CatalogResourceStamp.store(key: "v3-e5-0123456789abcdef", for: [resource], in: dir)
        #expect(CatalogResourceStamp.storedKey(for: [resource], in: dir) == "v3-e5-0123456789abcdef")

        // Another size: not the same file.
        try Data("a\tb\nc\td\n".utf8).write(to: resource)
        #expect(CatalogResourceStamp.storedKey(for: [resource], in: dir) == nil)

        // Same size, another modification time: not the same file either.
        CatalogResourceStamp.store(key: "v3-e5-1111111111111111", for: [resource], in: dir)
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, resource.path, &times, 0) == 0)
        #expect(CatalogResourceStamp.storedKey(for: [resource], in: dir) == nil)

        // A damaged stamp is ignored.
        try Data("garbage".utf8).write(to: dir.appendingPathComponent(CatalogResourceStamp.fileName))
        #expect(CatalogResourceStamp.storedKey(for: [resource], in: dir) == nil)
    }

    /// Builds the whole catalog (up to a minute in a loaded debug run): on a thread of its own, not
    /// one of the two cooperative threads every other test needs.
    @Test func bundledCatalogOpensFromTheStampWithTheSameKey() async throws {
        let dir = try makeTempDirectory("stamp-open")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(!SQLiteCatalog.isBuilt(cacheDirectory: dir), "an empty directory: the first open builds")
        let first = try await offThePool { try SQLiteCatalog.open(cacheDirectory: dir) }
        #expect(SQLiteCatalog.isBuilt(cacheDirectory: dir))
        let urls = [try CatalogResources.url(), try CatalogResources.url("shelves")]
        let key = CatalogResourceStamp.storedKey(for: urls, in: dir)
        #expect(key == first.lastOpenStats.contentKey)
        #expect(
            key
                == CatalogBuilder.contentKey(
                    for: try SQLiteCatalog.bundledResource(),
                    shelves: try SQLiteCatalog.bundledResource("shelves")
                )
        )
        // Another shelves file (here: none) is another identity.
        #expect(CatalogResourceStamp.storedKey(for: [urls[0]], in: dir) == nil)
        let second = try await offThePool { try SQLiteCatalog.open(cacheDirectory: dir) }
        #expect(second.lastOpenStats.outcome == .reused)
        #expect(second.lastOpenStats.contentKey == first.lastOpenStats.contentKey)
        // A stamp left by a build of an older schema (same resources, its database still there)
        // is not followed: this build's catalog is opened, not the old one.
        let older = "v1-e1-" + first.lastOpenStats.contentKey.suffix(16)
        let olderURL = dir.appendingPathComponent("catalog-\(older).sqlite")
        try FileManager.default.copyItem(
            at: dir.appendingPathComponent("catalog-\(first.lastOpenStats.contentKey).sqlite"),
            to: olderURL
        )
        let olderDatabase = try DatabaseQueue(path: olderURL.path)
        try await olderDatabase.write {
            try $0.execute(sql: "UPDATE meta SET value = ? WHERE key = 'content_key'", arguments: [older])
        }
        try olderDatabase.close()
        CatalogResourceStamp.store(key: older, for: urls, in: dir)
        #expect(
            SQLiteCatalog.isBuilt(cacheDirectory: dir),
            "the stamp of another schema is passed over for the content key"
        )
        try FileManager.default.removeItem(
            at: dir.appendingPathComponent("catalog-\(first.lastOpenStats.contentKey).sqlite")
        )
        #expect(!SQLiteCatalog.isBuilt(cacheDirectory: dir), "only the older schema's database is left")
        let upgraded = try await offThePool { try SQLiteCatalog.open(cacheDirectory: dir) }
        #expect(upgraded.lastOpenStats.contentKey == first.lastOpenStats.contentKey)
        #expect(second.count == first.count)
    }
}
