import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

@testable import BooksTrackClient

/// Against the real local server (port 0, bundled catalog) with its fault injection.
@Suite struct LiveServerTests {
    static let dune = "9780441172719"

    func faulty(_ rules: [FaultRule]) -> ServerConfiguration {
        ServerConfiguration(port: 0, faultInjectionEnabled: true, faultRules: rules)
    }

    @Test func searchesDecodeFromTheStandIn() async throws {
        try await LiveServer.with { _, api in
            let connect = await api.connect()
            #expect(connect.source == .server)
            #expect(connect.capabilities?.dialect == .standIn)
            #expect(await api.availability(of: .similarBooks) == .available)
            let title = try await api.searchTitle("the hobbit", limit: 5)
            #expect(!title.value.items.isEmpty)
            #expect(title.info.rateLimit?.limit != nil)
            #expect(await api.budget(for: .search).source == .headers)
            let isbn = title.value.items.first?.isbn ?? Self.dune
            let byISBN = try await api.searchISBN(isbn)
            #expect(byISBN.info.status == 200)
            _ = try await api.searchAuthor("Tolkien", limit: 3)
            _ = try await api.searchAdvanced(title: "hobbit", author: "Tolkien")
            _ = try await api.searchV2("hobbit", mode: .text, limit: 3)
            _ = try? await api.semantic("a hobbit goes on an adventure", limit: 3)
            _ = try? await api.similar(isbn: isbn, limit: 3)
            _ = try? await api.weeklyRecommendations(limit: 3)
            #expect(await api.tightestBudget(includeFull: true) != nil)
        }
    }

    /// `bts serve --rate-limits off` sends no rate-limit headers: after 150 searches in well under a
    /// minute (the table says 100/min) the client still admits the next one.
    @Test func aServerWithoutRateLimitHeadersIsNotThrottledByTheTable() async throws {
        var configuration = ServerConfiguration(port: 0)
        configuration.rateLimitsEnabled = false
        try await LiveServer.with(configuration) { _, api in
            _ = await api.connect()
            for i in 0..<150 {
                #expect(await api.admission(for: .search) == .proceed, "search \(i) held back")
                let page = try await api.searchTitle("hobbit \(i % 7)", limit: 1)
                #expect(page.info.rateLimit == nil)
            }
            #expect(await api.budget(for: .search).source == .unmetered)
            #expect(await api.tightestBudget() == nil)
        }
    }

    /// 503 CIRCUIT_OPEN for the first 2 requests, recovered within the retry budget, waiting as told.
    @Test func circuitOpenRecoveredWithinRetryBudget() async throws {
        let recorder = SleepRecorder()
        let rule = FaultRule(
            pathPrefix: "/v1/search/title",
            action: .circuitOpen(retryAfterMs: 1500, provider: "google_books"),
            times: 2
        )
        let progress = SynchronizedBox<[String]>([])
        try await LiveServer.with(
            faulty([rule]),
            api: { url in
                var c = APIConfiguration(baseURL: url)
                c.sleep = recorder.sleep
                return c
            }
        ) { _, api in
            await api.setRetryHandler { p in progress.mutate { $0.append(p.message) } }
            let response = try await api.searchTitle("dune")
            #expect(response.info.attempts == 3)
            #expect(recorder.delays == [.milliseconds(1500), .milliseconds(1500)])
            #expect(progress.value.first?.hasPrefix("Provider temporarily unavailable: retrying 2/") == true)
        }
    }

    /// 429 from the real limiter: the computed wait is exactly the server's Retry-After.
    @Test func rateLimitWaitIsExactlyAsTold() async throws {
        let recorder = SleepRecorder()
        var config = ServerConfiguration(port: 0)
        config.rateLimits[.search] = .perMinute(1)
        try await LiveServer.with(
            config,
            api: { url in
                var c = APIConfiguration(baseURL: url)
                c.sleep = recorder.sleep
                c.retryPolicy = RetryPolicy(maxAttempts: 2)
                return c
            }
        ) { _, api in
            _ = try await api.searchTitle("dune")
            #expect(await api.admission(for: .search) != .proceed)
            let clock = ContinuousClock()
            let started = clock.now
            do {
                _ = try await api.searchTitle("emma")
                Issue.record("expected 429")
            } catch let error as BooksTrackError {
                #expect(error.category == .rateLimited)
                #expect(error.category == .rateLimited)
                #expect(error.retryAfter != nil)
                #expect(recorder.delays.count == 1)
                // The first wait equals what the server said on the first 429. `told` comes from the
                // second 429, which the (non-sleeping) retry sent `elapsed` later: the window's
                // remaining time shrank by that much, whatever the machine's load.
                if let told = error.retryAfter, let waited = recorder.delays.first {
                    let elapsed = (clock.now - started).timeInterval
                    #expect(waited.timeInterval >= told.timeInterval - 1.0)
                    #expect(waited.timeInterval <= told.timeInterval + elapsed + 1.0)
                }
            }
        }
    }

    @Test func notFoundIsNotRetried() async throws {
        try await LiveServer.with { _, api in
            do {
                _ = try await api.jobStatus("no-such-job")
                Issue.record("expected 404")
            } catch let error as BooksTrackError {
                #expect(error.category == .notFound)
            }
            #expect(await api.statistics.requestsSent == 1)
        }
    }

    @Test func proxyPageFromFaultInjection() async throws {
        let recorder = SleepRecorder()
        try await LiveServer.with(
            faulty([FaultRule(pathPrefix: "/v1/search/title", action: .proxyHTML(status: 502))]),
            api: { url in
                var c = APIConfiguration(baseURL: url)
                c.sleep = recorder.sleep
                return c
            }
        ) { _, api in
            do {
                _ = try await api.searchTitle("dune")
                Issue.record("expected failure")
            } catch let error as BooksTrackError {
                #expect(error.message.contains("proxy returned an HTML error page (502 Bad Gateway)"))
                #expect(error.attempts == 3)
            }
        }
    }

    /// Latency 5 s, cancel after 100 ms: the call returns promptly with a cancellation.
    @Test func cancellationUnderLatencyReturnsPromptly() async throws {
        try await LiveServer.with(
            faulty([FaultRule(pathPrefix: "/v1/search/title", action: .latency(milliseconds: 5000))])
        ) { _, api in
            let task = Task { try await api.searchTitle("dune") }
            try await Task.sleep(for: .milliseconds(100))
            task.cancel()
            let result = await task.result
            if case .failure(let error) = result {
                #expect((error as? BooksTrackError)?.isCancellation == true)
            } else {
                Issue.record("expected cancellation")
            }
        }
    }
}
