import Foundation
import Testing

@testable import BooksTrackLibrary

/// A write the file system refuses is named for what refused it: the file-size limit (`ulimit -f`)
/// or a full disk, not "an I/O error".
@Suite(.onWorkThreads) struct StorageFailureTests {
    @Test func theCauseIsNamedFromTheFacts() {
        typealias Facts = LibraryError.StorageFacts
        let limited = Facts(fileSizeLimit: 512 << 10, largestFile: 500 << 10, freeBytes: 40 << 30)
        #expect(
            LibraryError.ioFailure(limited)
                == "the file-size limit was hit (ulimit -f allows 512 KB a file; 'ulimit -f unlimited' lifts it)"
        )
        // SQLite says SQLITE_FULL for a write the limit cut short: still the limit.
        #expect(LibraryError.ioFailure(limited, full: true).hasPrefix("the file-size limit was hit"))
        let full = Facts(fileSizeLimit: nil, largestFile: 3 << 20, freeBytes: 12 << 10)
        #expect(LibraryError.ioFailure(full) == "the disk is full (12 KB free where the library is)")
        #expect(
            LibraryError.ioFailure(Facts(fileSizeLimit: nil, largestFile: 1, freeBytes: 5 << 30), full: true)
                == "the disk is full"
        )
        // A limit far above the files is not the cause.
        let roomy = Facts(fileSizeLimit: 1 << 40, largestFile: 3 << 20, freeBytes: 40 << 30)
        #expect(LibraryError.ioFailure(roomy) == "an I/O error (the disk could not be read or written)")
    }

    /// `ulimit -f 512` under a library import of 4,000 books: one sentence naming the limit, exit 1
    /// (the process was killed by SIGXFSZ, or said "an I/O error").
    @Test(
        .enabled(
            if: BTSExecutable.url != nil && FileManager.default.isExecutableFile(atPath: "/bin/bash"),
            "needs the bts binary and bash"
        )
    )
    func anImportPastTheFileSizeLimitSaysSo() async throws {
        let binary = try #require(BTSExecutable.url)
        let dir = try makeTempDirectory("file-size-limit")
        defer { try? FileManager.default.removeItem(at: dir) }
        var csv = "Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf,Date Added\n"
        let padding = String(repeating: "a long subtitle of many words ", count: 8)
        for row in 0..<4000 { csv += "\(row),Book \(row) \(padding),Author \(row % 97),,,3,read,2020/01/02\n" }
        try Data(csv.utf8).write(to: dir.appendingPathComponent("big.csv"))
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": dir.path, "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path,
            "XDG_STATE_HOME": dir.appendingPathComponent("state").path,
            "XDG_DATA_HOME": dir.appendingPathComponent("data").path,
            "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path,
        ]
        let outcome = try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", #"ulimit -f 512 && cd "$1" && exec "$0" -c "library import big.csv""#, binary.path, dir.path],
            environment: environment,
            timeout: .seconds(120)
        )
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains("the file-size limit was hit (ulimit -f allows 512 KB a file"),
            "\(outcome.stderr)"
        )
        #expect(!outcome.stderr.contains("I/O error"), "\(outcome.stderr)")
    }
}
