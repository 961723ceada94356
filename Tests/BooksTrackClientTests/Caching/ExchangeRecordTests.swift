import BooksTrackContract
import BooksTrackServer
import Foundation
import HTTPTypes
import Hummingbird
import NIOHTTP1
import Testing

@testable import BooksTrackClient

/// The last exchange (`lastExchange`): method, URL, status, time, the cache's part and the response's
/// headers of the last answer a call got, from the server, the memory or disk cache, a 304 or offline.
@Suite struct ExchangeRecordTests {
    static let hungerGames = "9780439023481"

    /// The first value of header `name` (lower case) in `exchange`.
    static func header(_ name: String, of exchange: HTTPExchange) -> String? {
        exchange.headers.first { $0.name.lowercased() == name }?.value
    }

    @Test func theRealServersAnswerIsAMissThenTheSameLookupIsAHit() async throws {
        try await LiveServer.with { server, api in
            #expect(api.lastExchange == nil)
            _ = try await api.searchISBN(Self.hungerGames)
            let miss = try #require(api.lastExchange)
            #expect(miss.method == "GET")
            #expect(miss.status == 200)
            #expect(miss.cache == .miss)
            #expect(miss.duration > .zero)
            #expect(miss.url == server.baseURL.absoluteString + "/v1/search/isbn?isbn=\(Self.hungerGames)")
            #expect(Self.header("content-type", of: miss)?.contains("json") == true)
            _ = try await api.searchISBN(Self.hungerGames)
            let hit = try #require(api.lastExchange)
            #expect(hit.cache == .hit)
            #expect(hit.status == 200)
            #expect(hit.url == miss.url)
            #expect(Self.header("content-type", of: hit)?.contains("json") == true)
            #expect(await api.statistics.requestsSent == 1)
        }
    }

    /// Taken, it is gone until the next call gets an answer.
    @Test func takingTheExchangeForgetsIt() async throws {
        try await LiveServer.with { _, api in
            _ = try await api.searchTitle("dune", limit: 1)
            #expect(api.takeLastExchange()?.status == 200)
            #expect(api.takeLastExchange() == nil)
            #expect(api.lastExchange == nil)
        }
    }

    /// Retries leave the last attempt's answer: two 503s, then the 200.
    @Test func aRetriedCallLeavesItsLastAttempt() async throws {
        let recorder = SleepRecorder()
        let rule = FaultRule(
            pathPrefix: "/v1/search/title",
            action: .circuitOpen(retryAfterMs: 10, provider: "google_books"),
            times: 2
        )
        let configuration = ServerConfiguration(port: 0, faultInjectionEnabled: true, faultRules: [rule])
        try await LiveServer.with(
            configuration,
            api: { url in
                var c = APIConfiguration(baseURL: url)
                c.sleep = recorder.sleep
                return c
            }
        ) { _, api in
            let response = try await api.searchTitle("dune")
            #expect(response.info.attempts == 3)
            let exchange = try #require(api.lastExchange)
            #expect(exchange.status == 200)
            #expect(exchange.cache == .miss)
        }
    }

    /// An error answer is an exchange too; its headers are the response's, never the request's
    /// credentials, and a cookie is masked.
    @Test func anErrorAnswerIsRecordedWithItsHeadersMasked() async throws {
        let seen = SynchronizedBox<String?>(nil)
        try await TinyServer.with({ router in
            router.get("/v1/search/isbn") { request, _ in
                seen.mutate { $0 = request.headers[.authorization] }
                var headers = HTTPFields()
                headers[.setCookie] = "session=abcdef"
                headers[HTTPField.Name("X-Served-By")!] = "tiny"
                return Reply.json(
                    #"{"success":false,"error":{"code":"NOT_FOUND","message":"Book not found"}}"#,
                    status: .notFound,
                    headers: headers
                )
            }
        }) { server in
            var configuration = APIConfiguration(baseURL: server.baseURL, retryPolicy: .never)
            configuration.bearerToken = "secret-token-123"
            let api = BooksTrackAPI(configuration: configuration)
            await #expect(throws: BooksTrackError.self) { try await api.searchISBN(Self.hungerGames) }
            await api.shutdown()
            #expect(seen.value == "Bearer secret-token-123")
            let exchange = try #require(api.lastExchange)
            #expect(exchange.status == 404)
            #expect(exchange.cache == .miss)
            let names = exchange.headers.map { $0.name.lowercased() }
            #expect(names.contains("x-served-by"))
            #expect(!names.contains("authorization"))
            #expect(Self.header("set-cookie", of: exchange) == SecretMasking.mask)
            #expect(!exchange.headers.map(\.value).joined().contains("secret-token-123"))
        }
    }

    /// A request that got no answer is not an exchange: the one before stays.
    @Test func aRefusedConnectionLeavesThePreviousExchange() async throws {
        let api = BooksTrackAPI(
            configuration: APIConfiguration(
                baseURL: URL(string: "http://127.0.0.1:\(closedPort())")!,
                retryPolicy: .never
            )
        )
        await #expect(throws: BooksTrackError.self) { try await api.searchTitle("dune") }
        await api.shutdown()
        #expect(api.lastExchange == nil)
    }

    @Test func aFreshDiskAnswerIsAHitAStaleOneConfirmedBy304IsRevalidated() async throws {
        try await ResponseDiskCacheTests.withServer { server, dir, clock, hits, seen in
            let first = ResponseDiskCacheTests.client(
                server.baseURL,
                cache: ResponseDiskCache(directory: dir, backend: "x"),
                clock: clock,
                dialect: .v3
            )
            _ = try await first.searchISBN(ResponseDiskCacheTests.isbn)
            #expect(first.lastExchange?.cache == .miss)
            await first.shutdown()
            // Another client (as another process) within the server's max-age: the disk's answer.
            clock.advance(by: 60)
            let second = ResponseDiskCacheTests.client(
                server.baseURL,
                cache: ResponseDiskCache(directory: dir, backend: "x"),
                clock: clock,
                dialect: .v3
            )
            _ = try await second.searchISBN(ResponseDiskCacheTests.isbn)
            await second.shutdown()
            let hit = try #require(second.lastExchange)
            #expect(hit.cache == .hit)
            #expect(hit.status == 200)
            #expect(Self.header("etag", of: hit) == ResponseDiskCacheTests.etag)
            #expect(hits.count("book") == 1)
            // Past max-age: revalidated with If-None-Match, a 304, the stored body served as 200.
            clock.advance(by: 3600)
            let third = ResponseDiskCacheTests.client(
                server.baseURL,
                cache: ResponseDiskCache(directory: dir, backend: "x"),
                clock: clock,
                dialect: .v3
            )
            _ = try await third.searchISBN(ResponseDiskCacheTests.isbn)
            await third.shutdown()
            #expect(seen.value.last == "if-none-match=\(ResponseDiskCacheTests.etag)")
            let revalidated = try #require(third.lastExchange)
            #expect(revalidated.cache == .revalidated)
            #expect(revalidated.status == 200)
            #expect(revalidated.duration > .zero)
            #expect(Self.header("content-type", of: revalidated)?.contains("json") == true)
            #expect(hits.count("book") == 2)
        }
    }

    @Test func aStoredAnswerServedWhileTheServerIsDownIsOffline() async throws {
        let dir = try TempDir("exchange-offline")
        defer { dir.cleanup() }
        let clock = ManualClock()
        try await ResponseDiskCacheTests.withServer { server, _, _, _, _ in
            let api = ResponseDiskCacheTests.client(
                server.baseURL,
                cache: ResponseDiskCache(directory: dir.url, backend: "shared"),
                clock: clock
            )
            _ = try await api.searchTitle("dune")
            await api.shutdown()
        }
        clock.advance(by: 3600)  // stale: only an unreachable server makes it the answer
        let down = URL(string: "http://127.0.0.1:\(closedPort())")!
        let offline = ResponseDiskCacheTests.client(
            down,
            cache: ResponseDiskCache(directory: dir.url, backend: "shared"),
            clock: clock
        )
        _ = try await offline.searchTitle("dune")
        await offline.shutdown()
        let exchange = try #require(offline.lastExchange)
        #expect(exchange.cache == .offline)
        #expect(exchange.status == 200)
        #expect(exchange.method == "GET")
        #expect(exchange.url.hasPrefix(down.absoluteString + "/v1/search/title?q=dune"))
        #expect(exchange.duration > .zero)
    }

    /// The token keeper's own refreshes are not the caller's exchange.
    @Test func callsMadeOffTheRecordLeaveTheLastExchange() async throws {
        try await LiveServer.with { _, api in
            _ = try await api.searchTitle("dune", limit: 1)
            let before = try #require(api.lastExchange)
            _ = try await BooksTrackAPI.$recordsExchanges.withValue(false) {
                try await api.searchTitle("emma", limit: 1)
            }
            #expect(api.lastExchange?.url == before.url)
        }
    }

    /// A 304's headers update the stored ones (but for its empty body's length).
    @Test func aRevalidatedAnswerTakesThe304sHeaders() {
        var stored = HTTPHeaders()
        stored.add(name: "Content-Type", value: "application/json")
        stored.add(name: "Content-Length", value: "512")
        stored.add(name: "Cache-Control", value: "max-age=60")
        var notModified = HTTPHeaders()
        notModified.add(name: "cache-control", value: "max-age=3600")
        notModified.add(name: "Content-Length", value: "0")
        notModified.add(name: "X-Request-Id", value: "r-2")
        let merged = HTTPExchange.revalidated(stored: stored, notModified: notModified)
        #expect(merged["content-type"] == ["application/json"])
        #expect(merged["content-length"] == ["512"])
        #expect(merged["cache-control"] == ["max-age=3600"])
        #expect(merged["x-request-id"] == ["r-2"])
    }
}
