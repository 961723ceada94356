import BooksTrackContract
import Foundation
import Testing

/// Two real `bts` processes (the built binary) writing to one library at once lose nothing:
/// every import is one transaction, the second writer waits for the first (WAL, busy timeout).
@Suite("Library: two bts processes")
struct LibraryProcessTests {
    static let writers = 2
    static let filesPerWriter = 20
    static let booksPerFile = 15

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func twoProcessesAddingBooksAtOnceLoseNothing() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bts-lib-procs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let header = "Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf,Date Added\n"
        // A file both writers import: its books must be there once.
        let shared = (0..<Self.booksPerFile).map {
            "\($0),Shared Book \($0),Common Author,,,3,read,2020/01/0\($0 % 9 + 1)"
        }
        try Data((header + shared.joined(separator: "\n") + "\n").utf8).write(
            to: root.appendingPathComponent("shared.csv")
        )
        for writer in 0..<Self.writers {
            var script = ""
            for file in 0..<Self.filesPerWriter {
                let rows = (0..<Self.booksPerFile).map { book in
                    "\(book),Writer \(writer) Book \(file)-\(book),Author \(writer),,,,to-read,2021/02/03"
                }
                let name = "w\(writer)-\(file).csv"
                try Data((header + rows.joined(separator: "\n") + "\n").utf8).write(
                    to: root.appendingPathComponent(name)
                )
                script += "library import \(name)\n"
                if file == Self.filesPerWriter / 2 { script += "library import shared.csv\n" }
            }
            try Data(script.utf8).write(to: root.appendingPathComponent("writer\(writer).bts"))
        }
        let environment = Self.environment(root)
        async let first = Self.run(["writer0.bts"], in: root, environment: environment)
        async let second = Self.run(["writer1.bts"], in: root, environment: environment)
        let outcomes = try await [first, second]
        for outcome in outcomes {
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        let list = try await Self.run(
            ["--output", "json", "-c", "library list --limit 1"],
            in: root,
            environment: environment
        )
        #expect(list.status == 0, "\(list.stderr)")
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(list.stdout.utf8))
        let expected = Self.writers * Self.filesPerWriter * Self.booksPerFile + Self.booksPerFile
        #expect(value["total"]?.intValue == expected, "\(list.stdout.prefix(300))")
        let shelves = try await Self.run(
            ["--output", "json", "-c", "library list --shelf read --limit 1"],
            in: root,
            environment: environment
        )
        let read = try JSONDecoder().decode(JSONValue.self, from: Data(shelves.stdout.utf8))
        #expect(read["total"]?.intValue == Self.booksPerFile)
    }

    static func environment(_ root: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = root.path
        environment["XDG_DATA_HOME"] = root.appendingPathComponent("data").path
        environment["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
        environment["XDG_STATE_HOME"] = root.appendingPathComponent("state").path
        environment["XDG_CACHE_HOME"] =
            (try? SharedCatalog.seed(cacheHome: root.appendingPathComponent("cache")).path)
            ?? root.appendingPathComponent("cache").path
        environment.removeValue(forKey: "BTS_API_URL")
        environment.removeValue(forKey: "BTS_LIBRARY")
        return environment
    }

    static func run(
        _ arguments: [String],
        in directory: URL,
        environment: [String: String]
    ) async throws
        -> BinaryTests.Outcome
    {
        guard let binary = BinaryTests.binary else { throw BinaryTests.SkipError() }
        return try await ChildProcess.run(binary, arguments, environment: environment, directory: directory)
    }
}
