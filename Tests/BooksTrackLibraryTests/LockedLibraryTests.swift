import BooksTrackLibrary
import Foundation
import GRDB
import Testing

/// Another SQLite client (e.g. `sqlite3`) holding a write transaction on the library: reads do not
/// wait for it (opening the pool took the write lock: `library list` blocked up to 50 s), and a
/// write gives up after the busy timeout saying the library is busy, without blaming bts.
@Suite(.onWorkThreads) struct LockedLibraryTests {
    /// A library with one book, closed (its `-wal` file gone, as after every bts run).
    static func closedLibrary(_ name: String) async throws -> (dir: URL, file: URL) {
        let dir = try makeTempDirectory(name)
        let file = dir.appendingPathComponent("library.sqlite")
        do {
            let library = try BookLibrary(path: file)
            _ = try await library.save(
                [BookData(title: "Dune", authors: ["Frank Herbert"], isbn: "9780441172719")],
                from: .manual
            )
        }
        return (dir, file)
    }

    /// A connection of another program, inside `BEGIN IMMEDIATE` until `body` returns.
    static func whileAnotherWriterHoldsTheLock<T>(_ file: URL, _ body: () async throws -> T) async throws -> T {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let foreign = try DatabaseQueue(path: file.path, configuration: configuration)
        try foreign.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE; UPDATE reading SET rating = 3") }
        defer { try? foreign.inDatabase { try $0.execute(sql: "ROLLBACK") } }
        return try await body()
    }

    @Test func readsDoNotWaitForAForeignWriter() async throws {
        let (dir, file) = try await Self.closedLibrary("locked-read")
        defer { try? FileManager.default.removeItem(at: dir) }
        // The foreign writer holds its lock for the whole read, so a read that waited for the lock
        // could only end in the busy error after the busy timeout; a count means it never waited
        // (no clock: under a loaded machine the open alone once took 7 s).
        let count = try await Self.whileAnotherWriterHoldsTheLock(file) {
            try await BookLibrary(path: file).count()
        }
        #expect(count == 1)
    }

    @Test func aWriteGivesUpAfterTheBusyTimeoutAndSaysTheLibraryIsBusy() async throws {
        let (dir, file) = try await Self.closedLibrary("locked-write")
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = try BookLibrary(path: file)
        // The other writer holds the lock until the write returns: a write that never gave up would
        // hang here (bounded by the test's time limit); the busy error says it gave up.
        let error = await #expect(throws: LibraryError.self) {
            try await Self.whileAnotherWriterHoldsTheLock(file) {
                try await library.save([BookData(title: "Emma", authors: ["Jane Austen"])], from: .manual)
            }
        }
        #expect(error == .busy)
        #expect(error?.message.contains("another bts") == false)
        #expect(error?.message.contains("busy") == true)
        // Once the other writer is gone, the same library writes.
        #expect(try await library.save([BookData(title: "Emma", authors: ["Jane Austen"])], from: .manual).created == 1)
        #expect(try await library.count() == 2)
    }
}
