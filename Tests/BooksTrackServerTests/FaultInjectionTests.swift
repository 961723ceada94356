import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

@Suite struct FaultInjectionTests {
    static func faultyConfiguration(_ rules: [FaultRule] = []) -> ServerConfiguration {
        var config = TestServer.testConfiguration()
        config.faultInjectionEnabled = true
        config.faultRules = rules
        return config
    }

    @Test func disabledByDefaultAndUnreachable() async throws {
        try await TestServer.with { server async throws in
            server.running.faults.set([FaultRule(pathPrefix: "", action: .internalError)])
            #expect(server.running.faults.rules.isEmpty)
            let response = try await server.get("/health", headers: [("X-Custom-Error", "CORS_BLOCKED")])
            #expect(response.status == 200)
            #expect(response.header("X-Fault-Injection") == nil && response.header("X-Custom-Error") == nil)
        }
    }

    @Test func circuitOpen() async throws {
        let config = Self.faultyConfiguration([
            FaultRule(pathPrefix: "/v1/search", action: .circuitOpen(retryAfterMs: 5000, provider: "isbndb"))
        ])
        try await TestServer.with(config) { server async throws in
            let response = try await server.get("/v1/search/title?q=x")
            #expect(response.status == 503)
            #expect(response.header("X-Fault-Injection") == "active")
            #expect(response.header("X-Error-Type") == "CIRCUIT_OPEN")
            #expect(response.header("Retry-After") == "5")
            let error = try #require(try response.failure.error)
            #expect(
                error.code == .circuitOpen && error.retryable && error.retryAfterMs == 5000
                    && error.provider == "isbndb"
            )
            // Prefix match only.
            #expect(try await server.get("/api/v2/search?q=x").status == 200)
        }
    }

    @Test func internalErrorHTMLAndEmptyBodies() async throws {
        try await TestServer.with(Self.faultyConfiguration()) { server async throws in
            server.running.faults.set([
                FaultRule(pathPrefix: "/a", action: .internalError),
                FaultRule(pathPrefix: "/b", action: .proxyHTML(status: 502)),
                FaultRule(pathPrefix: "/c", action: .emptyBody(status: 503)),
                FaultRule(pathPrefix: "/d", action: .emptyBody(status: 504)),
            ])
            let internalError = try await server.get("/a")
            #expect(internalError.status == 500 && internalError.errorCode == "INTERNAL_ERROR")
            let html = try await server.get("/b/anything")
            #expect(html.status == 502 && html.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(html.text.contains("<html>") && html.text.contains("502 Bad Gateway"))
            #expect((try? html.decode([String: JSONValue].self)) == nil)
            let empty503 = try await server.get("/c")
            #expect(empty503.status == 503 && empty503.body.isEmpty)
            let empty504 = try await server.get("/d")
            #expect(empty504.status == 504 && empty504.body.isEmpty)
            server.running.faults.clear()
            #expect(try await server.get("/a").status == 404)
        }
    }

    @Test func failFirstNThenSucceed() async throws {
        try await TestServer.with(Self.faultyConfiguration()) { server async throws in
            server.running.faults.set([
                FaultRule(pathPrefix: "/api/v2/books/enrich", method: "POST", action: .emptyBody(status: 503), times: 2)
            ])
            let body = #"{"barcode":"9780439023481"}"#
            var statuses: [Int] = []
            for method in ["POST", "GET", "POST", "POST", "POST"] {
                let response =
                    method == "POST"
                    ? try await server.postJSON("/api/v2/books/enrich", body)
                    : try await server.get("/api/v2/books/enrich")
                statuses.append(response.status)
            }
            // The GET (405) does not match the POST rule and is not counted.
            #expect(statuses == [503, 405, 503, 200, 200])
        }
    }

    @Test func latencyDelaysThenPasses() async throws {
        try await TestServer.with(
            Self.faultyConfiguration([FaultRule(pathPrefix: "/health", action: .latency(milliseconds: 50))])
        ) { server async throws in
            let response = try await server.get("/health")
            #expect(response.status == 200)
            let ms = Int(response.header("X-Response-Time")?.dropLast(2) ?? "") ?? 0
            #expect(ms >= 50)
        }
    }

    @Test func corsHeaderHonouredOnlyWhenEnabled() async throws {
        try await TestServer.with(Self.faultyConfiguration()) { server async throws in
            let response = try await server.get("/v1/search/title?q=x", headers: [("X-Custom-Error", "CORS_BLOCKED")])
            #expect(response.status == 403)
            #expect(response.header("X-Custom-Error") == "CORS_BLOCKED")
            #expect(response.errorCode == "CORS_BLOCKED")
            #expect(try response.failure.error?.message.contains("CORS") == true)
            #expect(try await server.get("/v1/search/title?q=x").status == 200)
        }
    }

    @Test func flagsConfigureFaults() async throws {
        let config = try ServerConfiguration(arguments: [
            "--port", "0", "--enable-fault-injection", "--inject-fault", "/v1/search/isbn=fail-first:1:html-502",
        ])
        try await TestServer.with(config) { server async throws in
            let first = try await server.get("/v1/search/isbn?isbn=9780439023481")
            let second = try await server.get("/v1/search/isbn?isbn=9780439023481")
            #expect(first.status == 502 && second.status == 200)
        }
    }
}
