import Foundation
import Testing

@testable import BooksTrackCatalog

@Suite(.onWorkThreads) struct DatabaseTests {
    @Test func buildsOnceThenReusesAndRebuildsOnChangedContent() throws {
        let dir = try makeTempDirectory("db")
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = try bundledSubset(200)

        let first = try SQLiteCatalog.open(cacheDirectory: dir, catalogTSV: data)
        #expect(first.lastOpenStats.outcome == .built)
        #expect(first.count == 200)
        let second = try SQLiteCatalog.open(cacheDirectory: dir, catalogTSV: data)
        #expect(second.lastOpenStats.outcome == .reused)
        #expect(second.lastOpenStats.contentKey == first.lastOpenStats.contentKey)
        #expect(try second.book(id: 1) == (try first.book(id: 1)))
        print("[catalog] 200-book subset: \(first.lastOpenStats) | \(second.lastOpenStats)")

        let changed = try bundledSubset(150)
        let third = try SQLiteCatalog.open(cacheDirectory: dir, catalogTSV: changed)
        #expect(third.lastOpenStats.outcome == .built)
        #expect(third.lastOpenStats.contentKey != first.lastOpenStats.contentKey)
        #expect(third.count == 150)
        // The stale database was removed, no temp files are left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(names == ["catalog-\(third.lastOpenStats.contentKey).sqlite"])
        // The first instance still answers (it holds its own file handle).
        #expect(try first.searchTitle("hunger", limit: 5).total >= 1)
    }

    @Test func concurrentOpensAgree() async throws {
        let dir = try makeTempDirectory("concurrent")
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = try bundledSubset(300)
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask { try SQLiteCatalog.open(cacheDirectory: dir, catalogTSV: data).count }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts == [300, 300, 300, 300])
        let again = try SQLiteCatalog.open(cacheDirectory: dir, catalogTSV: data)
        #expect(again.lastOpenStats.outcome == .reused)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func corruptCacheFileIsRebuilt() throws {
        let dir = try makeTempDirectory("corrupt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = try bundledSubset(50)
        let key = CatalogBuilder.contentKey(for: data)
        try Data("not a database".utf8).write(to: dir.appendingPathComponent("catalog-\(key).sqlite"))
        let catalog = try SQLiteCatalog.open(cacheDirectory: dir, catalogTSV: data)
        #expect(catalog.lastOpenStats.outcome == .built)
        #expect(catalog.count == 50)
    }

    @Test func badResourceIsAnErrorNotACrash() throws {
        #expect(throws: CatalogResourceTSV.DecodeError.badHeader) {
            _ = try SQLiteCatalog.openInMemory(catalogTSV: Data("nope\n".utf8))
        }
        let header = CatalogResourceTSV.header.joined(separator: "\t")
        #expect(throws: CatalogResourceTSV.DecodeError.self) {
            _ = try SQLiteCatalog.openInMemory(catalogTSV: Data((header + "\n1\t2\n").utf8))
        }
    }

    @Test func sharedCatalogIsTheWholeBundledCatalog() throws {
        let catalog = try SharedCatalog.get()
        #expect(catalog.count == 10_000)
        let stats = catalog.lastOpenStats
        #expect(stats.outcome == .built || stats.outcome == .reused)
        // Time a reuse-open of the same cache (printed, not asserted).
        let reopened = try SQLiteCatalog.open(cacheDirectory: SharedCatalog.catalogDirectory)
        #expect(reopened.lastOpenStats.outcome == .reused)
        print("[catalog] full build: \(stats)")
        print("[catalog] full reuse-open: \(reopened.lastOpenStats)")
    }
}
