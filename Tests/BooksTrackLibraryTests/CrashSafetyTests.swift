import BooksTrackLibrary
import Foundation
import GRDB
import TestSupport
import Testing

/// `kill -9` in the middle of `library import` loses nothing committed and doubles nothing: after
/// each kill the file passes `PRAGMA integrity_check`, holds none or all of the import (one
/// transaction), and importing the file again ends with each book once.
@Suite(.onWorkThreads) struct CrashSafetyTests {
    static let trials = 20
    static let rows = 600

    @Test(.enabled(if: BTSExecutable.url != nil, "bts binary not built: run swift build first"))
    func killNineDuringAnImportLosesAndDoublesNothing() async throws {
        let binary = try #require(BTSExecutable.url)
        let dir = try makeTempDirectory("crash-safety")
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv =
            "Title,Author,Exclusive Shelf\n"
            + (0..<Self.rows).map { "Book \($0),Author \($0 % 37),read" }.joined(separator: "\n") + "\n"
        try Data(csv.utf8).write(to: dir.appendingPathComponent("books.csv"))
        let library = dir.appendingPathComponent("library.sqlite")
        var environment = ProcessInfo.processInfo.environment
        environment["BTS_LIBRARY"] = library.path
        environment["HOME"] = dir.path
        environment["XDG_CONFIG_HOME"] = dir.appendingPathComponent("config").path
        environment["XDG_STATE_HOME"] = dir.appendingPathComponent("state").path
        environment["XDG_CACHE_HOME"] = try SharedCatalog.seed(cacheHome: dir.appendingPathComponent("cache")).path
        environment.removeValue(forKey: "BTS_API_URL")
        var killedMidway = 0
        for trial in 0..<Self.trials {
            try? FileManager.default.removeItem(at: library)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: library.path + suffix) }
            let process = SpawnedProcess()
            process.executableURL = binary
            process.arguments = ["-c", "library import books.csv"]
            process.environment = environment
            process.currentDirectoryURL = dir
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Spread over start-up, the open, and the import transaction (seen in a debug build:
            // killed with none of the import up to 360 ms, all of it from about 300 ms on).
            try await Task.sleep(for: .milliseconds(100 + trial * 20))
            kill(process.processIdentifier, SIGKILL)
            await offThePool { process.waitUntilExit() }
            if process.terminationReason == .uncaughtSignal { killedMidway += 1 }
            guard FileManager.default.fileExists(atPath: library.path) else { continue }
            let check = try DatabaseQueue(path: library.path)
            let (integrity, books) = try await check.read { db -> (String?, Int) in
                let integrity = try String.fetchOne(db, sql: "PRAGMA integrity_check")
                let hasTable = try db.tableExists("edition")
                return (integrity, hasTable ? try Int.fetchOne(db, sql: "SELECT count(*) FROM edition") ?? 0 : 0)
            }
            try check.close()
            #expect(integrity == "ok", "trial \(trial)")
            #expect(books == 0 || books == Self.rows, "trial \(trial): \(books) books, a part of one transaction")
            let again = try await ChildProcess.run(
                binary,
                ["-c", "library import books.csv"],
                environment: environment,
                directory: dir,
                timeout: .seconds(120)
            )
            #expect(again.status == 0, "trial \(trial): \(again)")
            #expect(try await BookLibrary(path: library).count() == Self.rows, "trial \(trial)")
        }
        #expect(killedMidway > 0, "no trial killed bts before it finished: the delays are too long")
    }
}
