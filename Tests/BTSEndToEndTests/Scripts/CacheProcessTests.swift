import BooksTrackClient
import BooksTrackContract
import BooksTrackServer
import Foundation
import Hummingbird
import ServerTestSupport
import TestSupport
import Testing

/// The response cache across real `bts` processes (the built binary), each with the same private
/// XDG directories: a second process answers from the first one's cache, also with the server down.
@Suite("Cache: bts processes")
struct CacheProcessTests {
    static let isbn = "9780441172719"

    static func routes(_ router: Router<BasicRequestContext>, hits: HitCounter) {
        router.get("/v1/search/isbn") { _, _ in
            hits.hit("isbn")
            return Reply.fixture("search-isbn-envelope-no-success.json")
        }
        router.get("/v1/search/title") { _, _ in
            hits.hit("title")
            return Reply.fixture("search-title-production.json")
        }
    }

    /// Private XDG directories under `root` (the library process tests'), the cache on.
    static func environment(_ root: URL) -> [String: String] {
        var environment = LibraryProcessTests.environment(root)
        environment.removeValue(forKey: "BTS_CACHE")
        return environment
    }

    static func bts(_ url: URL, _ script: String, root: URL) async throws -> ProcessOutcome {
        guard let binary = BinaryTests.binary else { throw BinaryTests.SkipError() }
        return try await ChildProcess.run(
            binary,
            [
                "--api", url.absoluteString, "--dialect", "v1", "--timeout", "\(TestTime.seconds(30))", "-o", "json",
                "-c", script,
            ],
            environment: environment(root),
            directory: root,
            timeout: .seconds(120)
        )
    }

    static func json(_ outcome: ProcessOutcome) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(outcome.stdout.utf8))
    }

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func aSecondProcessAnswersACachedISBNWithTheServerDownAndRepeatsNoSearch() async throws {
        let root = try makeTempDirectory("cache-procs")
        defer { try? FileManager.default.removeItem(at: root) }
        let hits = HitCounter()
        let url = try await TinyServer.with({ Self.routes($0, hits: hits) }) { server in
            let first = try await Self.bts(server.baseURL, "search isbn \(Self.isbn); search title dune", root: root)
            #expect(first.status == 0, "\(first)")
            // Another process within the 5 minutes: no request for either.
            let second = try await Self.bts(server.baseURL, "search isbn \(Self.isbn); search title dune", root: root)
            #expect(second.status == 0, "\(second)")
            #expect(hits.count("isbn") == 1)
            #expect(hits.count("title") == 1)
            // `--no-cache` asks the server.
            let third = try await Self.bts(server.baseURL, "search title dune --no-cache", root: root)
            #expect(third.status == 0, "\(third)")
            #expect(hits.count("title") == 2)
            // So does the global `--no-cache`, for every command of the run.
            guard let binary = BinaryTests.binary else { throw BinaryTests.SkipError() }
            let global = try await ChildProcess.run(
                binary,
                [
                    "--no-cache", "--api", server.baseURL.absoluteString, "--dialect", "v1", "-o", "json",
                    "-c", "search title dune; search title dune",
                ],
                environment: Self.environment(root),
                directory: root,
                timeout: .seconds(120)
            )
            #expect(global.status == 0, "\(global)")
            #expect(hits.count("title") == 4)
            return server.baseURL
        }
        // The server is gone: a fresh cached lookup answers as it would with the server up.
        let fresh = try await Self.bts(url, "search isbn \(Self.isbn)", root: root)
        #expect(fresh.status == 0, "\(fresh)")
        #expect(Self.json(fresh)?["results"]?.arrayValue?.isEmpty == false, "\(fresh.stdout)")
        #expect(!fresh.stderr.contains("offline"), "\(fresh.stderr)")
        // Stale answers (as after their TTL) are asked again: the server is down, so they answer,
        // saying so on stderr with their age, exit 0.
        let cache = ResponseDiskCache(
            directory: root.appendingPathComponent("cache/bts"),
            backend: ResponseDiskCache.backendName(url)
        )
        for listed in cache.entries() {
            guard var entry = cache.entry(for: listed.key, now: Date()) else { continue }
            entry.expiresAt = Date(timeIntervalSinceNow: -60)
            cache.store(entry)
        }
        let offline = try await Self.bts(url, "search isbn \(Self.isbn)", root: root)
        #expect(offline.status == 0, "\(offline)")
        #expect(
            offline.stderr.contains(
                "offline (the server could not be reached (connection refused)): answered from the cache"
            ),
            "\(offline.stderr)"
        )
        #expect(Self.json(offline)?["answeredBy"] == .string("cache"), "\(offline.stdout)")
        #expect(Self.json(offline)?["cacheAgeSeconds"]?.intValue != nil)
        // A script that insists on the server fails as before (exit 3).
        let insist = try await Self.bts(url, "set offline never\nsearch isbn \(Self.isbn)", root: root)
        #expect(insist.status == 3, "\(insist)")
        // `cache show` and `cache clear` work offline.
        let show = try await Self.bts(url, "cache show", root: root)
        #expect(show.status == 0, "\(show)")
        #expect(Self.json(show)?["entries"]?.intValue == 2, "\(show.stdout)")
        let clear = try await Self.bts(url, "cache clear", root: root)
        #expect(Self.json(clear)?["removed"]?.intValue == 2, "\(clear.stdout)")
        let gone = try await Self.bts(url, "search isbn \(Self.isbn)", root: root)
        #expect(gone.status == 3, "\(gone)")
        // The directory and file are private.
        let directory = root.appendingPathComponent("cache/bts")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasPrefix("responses-") && $0.hasSuffix(".sqlite")
        }
        #expect(files.count == 1)
        for name in files {
            let mode =
                try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[
                    .posixPermissions
                ] as? Int
            #expect(mode == 0o600)
        }
    }

    /// A timeout is said as a timeout when the library answers for the server.
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func aLibraryAnswerAfterATimeoutSaysItTimedOut() async throws {
        let root = try makeTempDirectory("cache-procs")
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(
            """
            Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf,Date Added
            1,The Hunger Games,Suzanne Collins,,9780439023481,5,read,2020/01/02

            """.utf8
        ).write(to: root.appendingPathComponent("books.csv"))
        try await TinyServer.with({ router in
            router.get("/v1/search/isbn") { _, _ in
                try await Task.sleep(for: .seconds(5))
                return Reply.fixture("search-isbn-envelope-no-success.json")
            }
        }) { server in
            guard let binary = BinaryTests.binary else { throw BinaryTests.SkipError() }
            let outcome = try await ChildProcess.run(
                binary,
                [
                    "--api", server.baseURL.absoluteString, "--dialect", "v1", "--timeout", "1", "-o", "json", "-c",
                    "library import books.csv; search isbn 9780439023481",
                ],
                environment: Self.environment(root),
                directory: root,
                timeout: .seconds(120)
            )
            #expect(outcome.status == 0, "\(outcome)")
            #expect(
                outcome.stderr.contains(
                    "the server did not answer in time (the request timed out): answered from your library"
                ),
                "\(outcome.stderr)"
            )
            #expect(!outcome.stderr.contains("unreachable"), "\(outcome.stderr)")
        }
    }

    /// Two processes filling one cache at once: both succeed, every answer is kept.
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func twoProcessesWritingTheCacheAtOnceBothSucceed() async throws {
        let root = try makeTempDirectory("cache-procs")
        defer { try? FileManager.default.removeItem(at: root) }
        let hits = HitCounter()
        try await TinyServer.with({ Self.routes($0, hits: hits) }) { server in
            let scripts = (0..<2).map { writer in
                (0..<40).map { "search title 'writer \(writer) query \($0)'" }.joined(separator: "\n")
            }
            async let first = Self.bts(server.baseURL, scripts[0], root: root)
            async let second = Self.bts(server.baseURL, scripts[1], root: root)
            let outcomes = try await [first, second]
            for outcome in outcomes { #expect(outcome.status == 0, "\(outcome)") }
            let show = try await Self.bts(server.baseURL, "cache show", root: root)
            #expect(Self.json(show)?["entries"]?.intValue == 80, "\(show)")
        }
    }

    /// A garbage cache file is discarded: the lookup asks the server and the cache works again.
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func aGarbageCacheFileIsNeverFatal() async throws {
        let root = try makeTempDirectory("cache-procs")
        defer { try? FileManager.default.removeItem(at: root) }
        let hits = HitCounter()
        try await TinyServer.with({ Self.routes($0, hits: hits) }) { server in
            let first = try await Self.bts(server.baseURL, "search isbn \(Self.isbn)", root: root)
            #expect(first.status == 0, "\(first)")
            let directory = root.appendingPathComponent("cache/bts")
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
            where name.hasPrefix("responses-") {
                let file = directory.appendingPathComponent(name)
                if name.hasSuffix(".sqlite") {
                    try Data(repeating: 0x5A, count: 5_000).write(to: file)
                } else {
                    try FileManager.default.removeItem(at: file)
                }
            }
            let second = try await Self.bts(server.baseURL, "search isbn \(Self.isbn)", root: root)
            #expect(second.status == 0, "\(second)")
            #expect(hits.count("isbn") == 2)
            let third = try await Self.bts(server.baseURL, "search isbn \(Self.isbn)", root: root)
            #expect(third.status == 0, "\(third)")
            #expect(hits.count("isbn") == 2)
        }
    }

    /// Job commands as a process's first command find the jobs an earlier process started.
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func jobCommandsWorkAsAProcesssFirstCommand() async throws {
        let root = try makeTempDirectory("cache-procs")
        defer { try? FileManager.default.removeItem(at: root) }
        let binary = try #require(BinaryTests.binary)
        try await LiveServer.running { server in
            let url = "http://127.0.0.1:\(server.port)"
            func bts(_ script: String) async throws -> ProcessOutcome {
                try await ChildProcess.run(
                    binary,
                    ["--api", url, "-o", "json", "-c", script],
                    environment: Self.environment(root),
                    directory: root
                )
            }
            try Data("Title,Author,ISBN\nThe Hunger Games,Suzanne Collins,9780439023481\n".utf8)
                .write(to: root.appendingPathComponent("lib.csv"))
            let start = try await bts("import lib.csv")
            #expect(start.status == 0, "\(start)")
            let jobID = Self.json(start)?["jobId"]?.stringValue ?? ""
            #expect(!jobID.isEmpty)
            for script in ["status last", "watch last", "results last", "status \(jobID)"] {
                let outcome = try await bts(script)
                #expect(outcome.status == 0, "\(script): \(outcome)")
            }
            let unknown = try await bts("cancel no-such-job")
            #expect(unknown.status == 1, "\(unknown)")
            #expect(unknown.stderr.contains("unknown"), "\(unknown.stderr)")
            #expect(!unknown.stderr.contains("token"), "\(unknown.stderr)")
        }
    }
}
