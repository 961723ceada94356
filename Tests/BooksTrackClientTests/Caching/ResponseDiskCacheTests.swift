import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServerTestSupport
import TestSupport
import Testing

@testable import BooksTrackClient

/// The on-disk response cache: shared by clients (as by processes) over one file, TTLs from the
/// server or the seeds, ETag revalidation, offline answers, corruption, bounds and secrecy.
@Suite struct ResponseDiskCacheTests {
    static let isbn = "9780441172719"
    static let etag = "\"book-v1\""

    /// A v1 lookup and title search, and a v3 book with an ETag (304 to `If-None-Match`), counted.
    static func routes(_ router: Router<BasicRequestContext>, hits: HitCounter, seen: SynchronizedBox<[String]>) {
        router.get("/v1/search/isbn") { request, _ in
            hits.hit("isbn")
            seen.mutate { $0.append("auth=\(request.headers[.authorization] ?? "")") }
            return Reply.fixture("search-isbn-envelope-no-success.json")
        }
        router.get("/v1/search/title") { _, _ in
            hits.hit("title")
            return Reply.fixture("search-title-production.json")
        }
        router.get("/v3/books/{isbn}") { request, _ in
            hits.hit("book")
            let match = request.headers[.ifNoneMatch]
            seen.mutate { $0.append("if-none-match=\(match ?? "")") }
            let headers: HTTPFields = [.eTag: etag, .cacheControl: "public, max-age=3600"]
            if match == etag { return Response(status: .notModified, headers: headers) }
            return Reply.json(Fixtures.text("source/v3/book.json"), headers: headers)
        }
    }

    static func client(
        _ url: URL,
        cache: ResponseDiskCache,
        clock: ManualClock,
        dialect: APIDialect = .v1
    ) -> BooksTrackAPI {
        var configuration = APIConfiguration(
            baseURL: url,
            timeout: Duration.seconds(60).scaled,
            connectTimeout: Duration.seconds(30).scaled,
            retryPolicy: .never,
            now: clock.closure
        )
        configuration.responseCache = cache
        configuration.dialect = dialect
        return BooksTrackAPI(configuration: configuration)
    }

    /// Runs `body` with a tiny server, a temp directory and a manual clock.
    static func withServer(
        _ body: (TinyServer, URL, ManualClock, HitCounter, SynchronizedBox<[String]>) async throws -> Void
    ) async throws {
        let dir = try TempDir("disk-cache")
        defer { dir.cleanup() }
        let hits = HitCounter()
        let seen = SynchronizedBox<[String]>([])
        let clock = ManualClock()
        try await TinyServer.with({ routes($0, hits: hits, seen: seen) }) { server in
            try await body(server, dir.url, clock, hits, seen)
        }
    }

    @Test func aSecondClientAnswersACachedISBNWithTheServerDown() async throws {
        let dir = try TempDir("disk-cache")
        defer { dir.cleanup() }
        let clock = ManualClock()
        let cache = { ResponseDiskCache(directory: dir.url, backend: "shared") }
        let hits = HitCounter()
        let seen = SynchronizedBox<[String]>([])
        try await TinyServer.with({ Self.routes($0, hits: hits, seen: seen) }) { server in
            let api = Self.client(server.baseURL, cache: cache(), clock: clock)
            let first = try await api.searchISBN(Self.isbn)
            #expect(first.info.source == .server)
            await api.shutdown()
        }
        clock.advance(by: 8 * 24 * 3600)  // past the 7 days: stale, yet an answer when offline
        let down = URL(string: "http://127.0.0.1:\(closedPort())")!
        let offline = Self.client(down, cache: cache(), clock: clock)
        let answer = try await offline.searchISBN(Self.isbn)
        guard case .offline(let age, let reason) = answer.info.source else {
            Issue.record("expected an offline answer, got \(answer.info.source)")
            return
        }
        #expect(age == .seconds(8 * 24 * 3600))
        #expect(reason.contains("connection refused"))
        #expect(answer.value.items.isEmpty == false)
        #expect(answer.info.source.name == "offline-cache")
        // A script that insists on the server gets the network error.
        await offline.setAnswersOffline(false)
        await #expect(throws: BooksTrackError.self) { try await offline.searchISBN(Self.isbn) }
        await offline.shutdown()
        #expect(hits.count("isbn") == 1)
    }

    /// A timeout is said as a timeout, not "unreachable".
    @Test func aTimeoutAnswersFromTheCacheSayingItTimedOut() async throws {
        let dir = try TempDir("disk-cache")
        defer { dir.cleanup() }
        let clock = ManualClock()
        let slow = SynchronizedBox(false)
        try await TinyServer.with({ router in
            router.get("/v1/search/title") { _, _ in
                if slow.value { try await Task.sleep(for: .seconds(4)) }
                return Reply.fixture("search-title-production.json")
            }
        }) { server in
            // The first answer has all the time a loaded machine needs; the second 1 s.
            var configuration = APIConfiguration(baseURL: server.baseURL, retryPolicy: .never, now: clock.closure)
            configuration.responseCache = ResponseDiskCache(directory: dir.url, backend: "t")
            configuration.dialect = .v1
            let api = BooksTrackAPI(configuration: configuration)
            _ = try await api.searchTitle("dune")
            await api.shutdown()
            clock.advance(by: 3600)
            slow.mutate { $0 = true }
            configuration.timeout = .seconds(1)
            let again = BooksTrackAPI(configuration: configuration)
            let answer = try await again.searchTitle("dune")
            await again.shutdown()
            guard case .offline(let age, let reason) = answer.info.source else {
                Issue.record("expected an offline answer, got \(answer.info.source)")
                return
            }
            #expect(age == .seconds(3600))
            #expect(reason == "the request timed out after 1 s")
        }
    }

    @Test func aSearchRepeatedWithinFiveMinutesByAnotherClientSendsNoRequestThenExpires() async throws {
        try await Self.withServer { server, dir, clock, hits, _ in
            let first = Self.client(
                server.baseURL,
                cache: ResponseDiskCache(directory: dir, backend: "b"),
                clock: clock
            )
            _ = try await first.searchTitle("dune")
            await first.shutdown()
            clock.advance(by: 299)
            let second = Self.client(
                server.baseURL,
                cache: ResponseDiskCache(directory: dir, backend: "b"),
                clock: clock
            )
            let again = try await second.searchTitle("dune")
            #expect(again.info.source == .disk(age: .seconds(299)))
            #expect(hits.count("title") == 1)
            #expect(await second.statistics.requestsSent == 0)
            await second.shutdown()
            clock.advance(by: 2)  // 301 s: the seeds' 5 minutes are over
            let third = Self.client(
                server.baseURL,
                cache: ResponseDiskCache(directory: dir, backend: "b"),
                clock: clock
            )
            let fresh = try await third.searchTitle("dune")
            #expect(fresh.info.source == .server)
            #expect(hits.count("title") == 2)
            await third.shutdown()
        }
    }

    @Test func aStaleAnswerWithAnETagIsRevalidatedAndA304ServesItAgain() async throws {
        try await Self.withServer { server, dir, clock, hits, seen in
            let cache = ResponseDiskCache(directory: dir, backend: "v3")
            let first = Self.client(server.baseURL, cache: cache, clock: clock, dialect: .v3)
            let book = try await first.searchISBN(Self.isbn)
            await first.shutdown()
            // The server's max-age (1 h) wins over the seeds' 7 days.
            let stored = try #require(cache.entry(for: "GET /v3/books/\(Self.isbn)", now: clock.now))
            #expect(stored.expiresAt == clock.now.addingTimeInterval(3600))
            #expect(stored.etag == Self.etag)
            clock.advance(by: 3601)
            let second = Self.client(
                server.baseURL,
                cache: ResponseDiskCache(directory: dir, backend: "v3"),
                clock: clock,
                dialect: .v3
            )
            let again = try await second.searchISBN(Self.isbn)
            #expect(again.info.status == 200)
            #expect(again.value.items.map(\.title) == book.value.items.map(\.title))
            #expect(await second.statistics.revalidations == 1)
            #expect(seen.value.last == "if-none-match=\(Self.etag)")
            await second.shutdown()
            // The 304 made it fresh for another hour.
            clock.advance(by: 60)
            let third = Self.client(
                server.baseURL,
                cache: ResponseDiskCache(directory: dir, backend: "v3"),
                clock: clock,
                dialect: .v3
            )
            let cached = try await third.searchISBN(Self.isbn)
            #expect(cached.info.source == .disk(age: .seconds(60)))
            #expect(hits.count("book") == 2)
            await third.shutdown()
        }
    }

    @Test(arguments: ["garbage", "truncated"])
    func aCorruptCacheFileIsDiscardedNeverFatal(_ damage: String) async throws {
        try await Self.withServer { server, dir, clock, hits, _ in
            let file: URL
            do {  // the last connection's close checkpoints the WAL into the file
                let cache = ResponseDiskCache(directory: dir, backend: "c")
                for i in 0..<200 {
                    cache.store(
                        .init(
                            key: "GET /x/\(i)",
                            status: 200,
                            headers: [],
                            body: Data(repeating: 0x41, count: 2_000),
                            etag: nil,
                            storedAt: clock.now,
                            expiresAt: clock.now + 60,
                            lastUsedAt: clock.now
                        )
                    )
                }
                file = cache.fileURL
            }
            // Another process's damage: the file rewritten while no one has it open.
            let damaged = ResponseDiskCache(directory: dir, backend: "c")
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
            if damage == "garbage" {
                try Data("this is not a database at all, just some words".utf8).write(to: file)
            } else {
                let whole = try Data(contentsOf: file)
                #expect(whole.count > 8_192)
                try whole.prefix(whole.count / 3).write(to: file)
            }
            let api = Self.client(server.baseURL, cache: damaged, clock: clock)
            _ = try await api.searchTitle("dune")  // a miss (or a discarded file), never an error
            _ = try await api.searchTitle("dune")
            await api.shutdown()
            let next = Self.client(server.baseURL, cache: ResponseDiskCache(directory: dir, backend: "c"), clock: clock)
            let answer = try await next.searchTitle("dune")
            await next.shutdown()
            #expect(hits.count("title") <= 2)
            #expect(answer.info.source != .server || hits.count("title") == 2)
            #expect(
                ResponseDiskCache(directory: dir, backend: "c").entries().contains {
                    $0.key.hasPrefix("GET /v1/search/title")
                }
            )
        }
    }

    /// Two writers on separate connections (as two processes) at once: every write lands.
    @Test func twoWritersAtOnceBothSucceed() async throws {
        let dir = try TempDir("disk-cache")
        defer { dir.cleanup() }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    let cache = ResponseDiskCache(directory: dir.url, backend: "w")
                    for i in 0..<150 {
                        cache.store(
                            .init(
                                key: "GET /w\(writer)/\(i)",
                                status: 200,
                                headers: [],
                                body: Data(count: 500),
                                etag: nil,
                                storedAt: now,
                                expiresAt: now + 60,
                                lastUsedAt: now
                            )
                        )
                    }
                }
            }
        }
        let summary = ResponseDiskCache(directory: dir.url, backend: "w").summary(now: now)
        #expect(summary.entries == 300)
    }

    @Test func theBoundEvictsTheLeastRecentlyUsed() throws {
        let dir = try TempDir("disk-cache")
        defer { dir.cleanup() }
        let cache = ResponseDiskCache(directory: dir.url, backend: "lru", maxBytes: 10_000)
        var now = Date(timeIntervalSince1970: 1_800_000_000)
        func put(_ key: String) {
            now += 1
            cache.store(
                .init(
                    key: key,
                    status: 200,
                    headers: [],
                    body: Data(count: 1_000),
                    etag: nil,
                    storedAt: now,
                    expiresAt: now + 60,
                    lastUsedAt: now
                )
            )
        }
        for i in 0..<9 { put("k\(i)") }
        now += ResponseDiskCache.lastUsedGranularity
        _ = cache.entry(for: "k0", now: now)  // used (long enough after its store to be marked): kept
        for i in 9..<14 { put("k\(i)") }
        let summary = cache.summary(now: now)
        #expect(summary.bytes <= 10_000)
        #expect(summary.entries == 10)
        let keys = Set(cache.entries().map(\.key))
        #expect(keys.contains("k0"))
        #expect(!keys.contains("k1"))
        #expect(cache.clear() == 10)
        #expect(cache.summary(now: now).entries == 0)
    }

    /// Values of the wrong type in a row (as `sqlite3` or damaged bytes leave them): the entry is
    /// a miss and left out of the list; GRDB's non-throwing subscripts trapped on each of them.
    @Test(arguments: [
        "UPDATE response SET status = x'ff00'", "UPDATE response SET status = 'two hundred'",
        "UPDATE response SET storedAt = 'soon'",
        "UPDATE response SET headers = x'00ff'", "UPDATE response SET etag = x'41'",
        "UPDATE response SET key = x'ff00'",
    ])
    func aRowOfTheWrongTypesIsAMissNotATrap(_ damage: String) throws {
        let dir = try TempDir("disk-cache")
        defer { dir.cleanup() }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let cache = ResponseDiskCache(directory: dir.url, backend: "damaged")
        for key in ["GET /a", "GET /b"] {
            cache.store(
                .init(
                    key: key,
                    status: 200,
                    headers: [HeaderField(name: "etag", value: "\"x\"")],
                    body: Data("{}".utf8),
                    etag: "\"x\"",
                    storedAt: now,
                    expiresAt: now + 60,
                    lastUsedAt: now
                )
            )
        }
        let sqlite = SpawnedProcess()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [cache.fileURL.path, damage + " WHERE key = 'GET /a'"]
        try sqlite.run()
        sqlite.waitUntilExit()
        try #require(sqlite.terminationStatus == 0)
        let reopened = ResponseDiskCache(directory: dir.url, backend: "damaged")
        #expect(reopened.entry(for: "GET /a", now: now) == nil)
        #expect(reopened.entry(for: "GET /b", now: now)?.body == Data("{}".utf8))
        #expect(reopened.entries().map(\.key) == ["GET /b"])
        #expect(reopened.summary(now: now).entries == 2)
    }

    /// Stored headers split at every line break: a damaged row's `a:b\r\nc: d` was one header whose
    /// value held CR LF (found by Fuzz/cache; its input is Fuzz/cache/corpus/crash-header-crlf).
    @Test func storedHeadersSplitAtEveryLineBreak() {
        #expect(
            ResponseDiskCache.decode("a:b\r\nc: d\u{2028}e: f\rg:h") == [
                HeaderField(name: "a", value: "b"), HeaderField(name: "c", value: "d"),
                HeaderField(name: "e", value: "f"),
                HeaderField(name: "g", value: "h"),
            ]
        )
    }

    @Test func noCredentialOrTokenIsWrittenAndTheFilesArePrivate() async throws {
        try await Self.withServer { server, dir, clock, _, seen in
            var components = try #require(URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false))
            components.user = "alice"
            components.password = "hunter2secret"
            let url = try #require(components.url)
            let cacheDir = dir.appendingPathComponent("bts")
            let cache = ResponseDiskCache(directory: cacheDir, backend: ResponseDiskCache.backendName(url))
            var configuration = APIConfiguration(baseURL: server.baseURL, retryPolicy: .never, now: clock.closure)
            configuration.responseCache = cache
            configuration.dialect = .v1
            configuration.bearerToken = "sk_live_0123456789abcdefSECRET"
            let api = BooksTrackAPI(configuration: configuration)
            _ = try await api.searchISBN(Self.isbn)
            await api.shutdown()
            #expect(seen.value.contains("auth=Bearer sk_live_0123456789abcdefSECRET"))
            let bytes =
                try Data(contentsOf: cache.fileURL)
                + ((try? Data(contentsOf: URL(fileURLWithPath: cache.fileURL.path + "-wal"))) ?? Data())
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains("SECRET"))
            #expect(!text.contains("hunter2"))
            #expect(text.contains("GET /v1/search/isbn?isbn=\(Self.isbn)"))
            let fileMode =
                try FileManager.default.attributesOfItem(atPath: cache.fileURL.path)[.posixPermissions] as? Int
            let dirMode = try FileManager.default.attributesOfItem(atPath: cacheDir.path)[.posixPermissions] as? Int
            #expect(fileMode == 0o600)
            #expect(dirMode == 0o700)
        }
    }

    @Test func theSeedsTTLs() {
        let wednesday = Date(timeIntervalSince1970: 1_764_165_600)  // 2025-11-26 14:00 UTC
        let sunday = Date(timeIntervalSince1970: 1_764_460_800)  // 2025-11-30 00:00 UTC
        #expect(CacheSeeds.nextWeek(after: wednesday) == sunday)
        #expect(CacheSeeds.nextWeek(after: sunday) == sunday + 7 * 86_400)
        #expect(CacheSeeds.nextWeek(after: sunday - 1) == sunday)
        #expect(
            CacheSeeds.ttl(path: "/v1/search/similar", mode: nil, now: wednesday) == .seconds(3 * 86_400 + 10 * 3600)
        )
        #expect(CacheSeeds.ttl(path: "/v1/search/title", mode: nil, now: wednesday) == .seconds(300))
        #expect(CacheSeeds.ttl(path: "/api/v2/search", mode: "semantic", now: wednesday) == .seconds(300))
        #expect(CacheSeeds.ttl(path: "/v3/books/9780441172719", mode: nil, now: wednesday) == .seconds(7 * 86_400))
        #expect(CacheSeeds.ttl(path: "/v3/jobs/imports/abc", mode: nil, now: wednesday) == nil)
        #expect(CacheSeeds.ttl(path: "/v1/jobs/abc/status", mode: nil, now: wednesday) == nil)
        #expect(CacheSeeds.ttl(path: "/health", mode: nil, now: wednesday) == nil)
    }
}
