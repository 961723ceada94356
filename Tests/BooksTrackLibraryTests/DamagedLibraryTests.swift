import BooksTrackLibrary
import Foundation
import GRDB
import Testing

/// A library file with a value of the wrong type (a BLOB where text belongs, text where a number
/// belongs), as damaged bytes or another tool (`sqlite3`) can leave it: every read says plainly
/// that the file is damaged (GRDB's non-throwing `row[…]` trapped: SIGILL), and `library export`
/// saves the books that can still be read.
@Suite(.onWorkThreads) struct DamagedLibraryTests {
    /// Two books, then `sql` run on the file by another connection.
    static func damaged(_ sql: String, _ name: String) async throws -> TempLibrary {
        let t = try TempLibrary(name)
        _ = try await t.library.importBooks(
            [
                ImportedBook(
                    row: 1,
                    data: BookData(title: "Dune", authors: ["Frank Herbert"], isbn: "9780441172719"),
                    reading: ReadingFields(shelf: .read, tags: ["classic"], rating: 4)
                ),
                ImportedBook(
                    row: 2,
                    data: BookData(title: "Emma", authors: ["Jane Austen"]),
                    reading: ReadingFields(shelf: .toRead)
                ),
            ],
            from: .importFile("x.csv")
        )
        let queue = try DatabaseQueue(path: t.library.path.path)
        try await queue.write { try $0.execute(sql: sql) }
        return t
    }

    static let damages = [
        "UPDATE reading SET shelf = x'ff00' WHERE editionId = (SELECT id FROM edition WHERE title = 'Dune')",
        "UPDATE edition SET title = x'ff00' WHERE title = 'Dune'",
        "UPDATE edition SET pageCount = 'many' WHERE title = 'Dune'",
        "PRAGMA ignore_check_constraints = ON; UPDATE reading SET rating = 'high' WHERE rating IS NOT NULL",
    ]

    @Test(arguments: damages) func everyReadSaysTheFileIsDamaged(_ sql: String) async throws {
        let t = try await Self.damaged(sql, "damaged")
        defer { t.cleanup() }
        let damaged = LibraryError.damaged(path: t.library.path.path)
        await #expect(throws: damaged) { try await t.library.list() }
        await #expect(throws: damaged) { try await t.library.search("dune") }
        await #expect(throws: damaged) { try await t.library.find("9780441172719") }
        #expect(damaged.message.contains("is damaged"))
        #expect(damaged.message.contains("PRAGMA integrity_check"))
    }

    @Test func shelvesAndStatsSayTheFileIsDamaged() async throws {
        let t = try await Self.damaged(Self.damages[0], "damaged-stats")
        defer { t.cleanup() }
        let damaged = LibraryError.damaged(path: t.library.path.path)
        await #expect(throws: damaged) { try await t.library.shelves() }
        await #expect(throws: damaged) { try await t.library.stats() }
        let rated = try await Self.damaged(Self.damages[3], "damaged-rating")
        defer { rated.cleanup() }
        await #expect(throws: LibraryError.damaged(path: rated.library.path.path)) { try await rated.library.stats() }
    }

    @Test(arguments: damages) func exportKeepsTheBooksThatRead(_ sql: String) async throws {
        let t = try await Self.damaged(sql, "damaged-export")
        defer { t.cleanup() }
        let export = try await t.library.exportGoodreadsFile()
        #expect(export.books == 1)
        #expect(export.unreadable == 1)
        #expect(export.csv.contains("Emma"))
        #expect(!export.csv.contains("Dune"))
    }

    /// The real binary: one error on stderr, exit 1, no trap.
    @Test(.enabled(if: BTSExecutable.url != nil, "bts binary not built: run swift build first"))
    func theShellSaysItInOneSentence() async throws {
        let t = try await Self.damaged(Self.damages[0], "damaged-bts")
        defer { t.cleanup() }
        let binary = try #require(BTSExecutable.url)
        var environment = ProcessInfo.processInfo.environment
        environment["BTS_LIBRARY"] = t.library.path.path
        environment["HOME"] = t.dir.path
        environment["XDG_CONFIG_HOME"] = t.dir.appendingPathComponent("config").path
        environment["XDG_STATE_HOME"] = t.dir.appendingPathComponent("state").path
        environment["XDG_CACHE_HOME"] = try SharedCatalog.seed(cacheHome: t.dir.appendingPathComponent("cache")).path
        environment.removeValue(forKey: "BTS_API_URL")
        for command in ["library list", "library shelves", "library stats"] {
            let outcome = try await ChildProcess.run(
                binary,
                ["-c", command],
                environment: environment,
                timeout: .seconds(60)
            )
            #expect(outcome.status == 1, "\(command): \(outcome)")
            #expect(
                outcome.stderr.contains("error: the library at \(t.library.path.path) is damaged"),
                "\(command): \(outcome)"
            )
            #expect(outcome.stderr.components(separatedBy: "error:").count == 2, "\(command): \(outcome)")
            #expect(!outcome.stderr.contains("Fatal error"), "\(command): \(outcome)")
        }
        let export = t.dir.appendingPathComponent("saved.csv")
        let outcome = try await ChildProcess.run(
            binary,
            ["-c", "library export \(export.path)"],
            environment: environment,
            timeout: .seconds(60)
        )
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.stderr.contains("1 book could not be read and was left out"), "\(outcome)")
        #expect(try String(contentsOf: export, encoding: .utf8).contains("Emma"))
    }
}
