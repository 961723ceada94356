import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

@Suite struct RateLimitTests {
    @Test func semanticLimitRefusesTheNPlusFirstAndResets() async throws {
        let clock = ManualClock()
        var config = TestServer.testConfiguration()
        config.rateLimits[.semantic] = .perMinute(3)
        try await TestServer.with(config, clock: clock) { server async throws in
            let path = "/api/v2/search?q=space&mode=semantic"
            let expectedReset = String(Int(clock.now.timeIntervalSince1970) + 60)
            for remaining in [2, 1, 0] {
                let response = try await server.get(path)
                #expect(response.status == 200)
                #expect(response.header("X-RateLimit-Limit") == "3")
                #expect(response.header("X-RateLimit-Remaining") == String(remaining))
                #expect(response.header("X-RateLimit-Reset") == expectedReset)
            }
            clock.advance(by: 20)
            let refused = try await server.get(path)
            #expect(refused.status == 429)
            #expect(refused.header("Retry-After") == "40")
            #expect(refused.header("X-RateLimit-Remaining") == "0")
            #expect(refused.header("X-Error-Type") == "RATE_LIMIT_EXCEEDED")
            let error = try #require(try refused.failure.error)
            #expect(error.code == .rateLimitExceeded && error.retryable && error.retryAfterMs == 40_000)
            #expect(error.message == "Too many requests. Please wait 40 seconds.")
            // Other classes keep their own budget.
            #expect(try await server.get("/api/v2/search?q=space").status == 200)
            clock.advance(by: 40)
            let again = try await server.get(path)
            #expect(again.status == 200 && again.header("X-RateLimit-Remaining") == "2")
        }
    }

    @Test func errorResponsesOfLimitedRoutesCarryTheHeaders() async throws {
        try await TestServer.with { server async throws in
            let response = try await server.get("/v1/search/title")
            #expect(response.status == 400)
            #expect(response.header("X-RateLimit-Limit") == "100")
            #expect(response.header("X-RateLimit-Remaining") == "99")
        }
    }

    @Test func globalLimitAppliesAcrossClasses() async throws {
        let clock = ManualClock()
        var config = TestServer.testConfiguration()
        config.rateLimits[.global] = .perHour(4)
        try await TestServer.with(config, clock: clock) { server async throws in
            let capabilities = try await server.get("/api/v2/capabilities")
            #expect(capabilities.header("X-RateLimit-Limit") == "4")
            #expect(capabilities.header("X-RateLimit-Class") == "global")
            // The class header wins on class-limited routes.
            #expect(try await server.get("/v1/search/title?q=x").header("X-RateLimit-Limit") == "100")
            _ = try await server.get("/api/v2/capabilities")
            // /health is never counted (a flood must not hide whether the server is up).
            #expect(try await server.get("/health").header("X-RateLimit-Class") == nil)
            _ = try await server.get("/api/v2/capabilities")
            let refused = try await server.get("/v1/search/isbn?isbn=9780439023481")
            #expect(refused.status == 429 && refused.header("Retry-After") == "3600")
            #expect(try await server.get("/health").status == 200)
            clock.advance(by: 3600)
            #expect(try await server.get("/api/v2/capabilities").status == 200)
        }
    }

    @Test func limitsOffMeansNoHeadersAndNoRefusals() async throws {
        var config = TestServer.testConfiguration()
        config.rateLimitsEnabled = false
        config.rateLimits[.semantic] = .perMinute(1)
        try await TestServer.with(config) { server async throws in
            for _ in 0..<5 {
                let response = try await server.get("/api/v2/search?q=x&mode=semantic")
                #expect(response.status == 200 && response.header("X-RateLimit-Limit") == nil)
            }
        }
    }

    @Test func enrichLimitCountsPosts() async throws {
        let clock = ManualClock()
        try await TestServer.with(clock: clock) { server async throws in
            for _ in 0..<5 {
                #expect(
                    try await server.postJSON("/api/v2/books/enrich", #"{"barcode":"9780439023481"}"#).status == 200
                )
            }
            let refused = try await server.postJSON("/api/v2/books/enrich", #"{"barcode":"9780439023481"}"#)
            #expect(refused.status == 429 && refused.header("Retry-After") == "60")
        }
    }
}
