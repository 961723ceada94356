import BooksTrackLibrary
import Foundation
import Testing

/// A library file the user cannot write (0400), and a leftover 0400 `-shm` after the file is made
/// writable again: `library list` works (it failed: "the file is read-only"), and a write names
/// the file that is read-only. Run by the real binary, as `nobody` when the tests run as root
/// (root writes any file).
@Suite(.onWorkThreads) struct ReadOnlyLibraryTests {
    static let setpriv = "/usr/bin/setpriv"
    static var canRun: Bool {
        BTSExecutable.url != nil && (getuid() != 0 || FileManager.default.isExecutableFile(atPath: setpriv))
    }

    /// Runs `bts -c command` on the library in `dir`, as `nobody` when this process is root.
    static func bts(_ command: String, dir: URL) async throws -> ProcessOutcome {
        let binary = try #require(BTSExecutable.url)
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": dir.path, "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path,
            "XDG_STATE_HOME": dir.appendingPathComponent("state").path,
            "XDG_DATA_HOME": dir.appendingPathComponent("data").path,
        ]
        if getuid() == 0 {
            return try await ChildProcess.run(
                URL(fileURLWithPath: setpriv),
                ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path, "-c", command],
                environment: environment,
                timeout: .seconds(60)
            )
        }
        return try await ChildProcess.run(binary, ["-c", command], environment: environment, timeout: .seconds(60))
    }

    static func setMode(_ mode: Int, _ path: String) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    @Test(.enabled(if: canRun, "needs the bts binary (and setpriv when run as root)"))
    func aReadOnlyLibraryIsListedAndAWriteNamesTheReadOnlyFile() async throws {
        let dir = try makeTempDirectory("read-only-library")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("data/bts/library.sqlite")
        do {
            let library = try BookLibrary(path: file)
            _ = try await library.save(
                [BookData(title: "Dune", authors: ["Frank Herbert"], isbn: "9780441172719")],
                from: .manual
            )
        }
        if getuid() == 0 {
            for path in [
                dir.path, dir.appendingPathComponent("data").path, file.deletingLastPathComponent().path, file.path,
            ] {
                try FileManager.default.setAttributes(
                    [.ownerAccountID: 65534, .groupOwnerAccountID: 65534],
                    ofItemAtPath: path
                )
            }
        }
        try Self.setMode(0o400, file.path)
        let list = try await Self.bts("library list", dir: dir)
        #expect(list.status == 0, "\(list)")
        #expect(list.stdout.contains("Dune"), "\(list)")
        let set = try await Self.bts("library set 9780441172719 --rating 4", dir: dir)
        #expect(set.status == 1, "\(set)")
        #expect(set.stderr.contains("the library cannot be written: \(file.path) is read-only"), "\(set)")

        // Writable again, but SQLite left a 0400 -shm behind: named, and listing still works.
        try Self.setMode(0o600, file.path)
        let shm = file.path + "-shm"
        if !FileManager.default.fileExists(atPath: shm) { try Data(count: 32_768).write(to: URL(fileURLWithPath: shm)) }
        try Self.setMode(0o400, shm)
        if getuid() == 0 {
            try FileManager.default.setAttributes(
                [.ownerAccountID: 65534, .groupOwnerAccountID: 65534],
                ofItemAtPath: shm
            )
        }
        let again = try await Self.bts("library list", dir: dir)
        #expect(again.status == 0, "\(again)")
        let write = try await Self.bts("library set 9780441172719 --rating 4", dir: dir)
        #expect(write.status == 1, "\(write)")
        #expect(write.stderr.contains("\(shm) is read-only"), "\(write)")
    }
}
