import BooksTrackContract
import Foundation
import Testing

@testable import BooksTrackServer

/// `--dialect production`: the deployed backend's answers over real HTTP (docs/production-dialect.md).
@Suite struct ProductionDialectServerTests {
    static func with<T: Sendable>(
        _ dialect: ServerDialect = .production,
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bts-dialect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var configuration = TestServer.testConfiguration()
        configuration.dialect = dialect
        return try await TestServer.with(
            configuration,
            modules: [CoreRoutes(), JobRoutes(dataDirectory: dir) { $0.itemsPerSecond = 1 }],
            body
        )
    }

    static func object(_ response: TestResponse) throws -> JSONValue {
        try JSONCoding.decoder().decode(JSONValue.self, from: response.body)
    }

    @Test func flagSelectsTheDialect() throws {
        #expect(try ServerConfiguration(arguments: ["--dialect", "production"]).dialect == .production)
        #expect(try ServerConfiguration(arguments: ["--dialect=contract"]).dialect == .contract)
        #expect(try ServerConfiguration(arguments: []).dialect == .contract)
        #expect(throws: ServerConfigurationError.self) { try ServerConfiguration(arguments: ["--dialect", "v3"]) }
    }

    @Test func routeGapsAnswerEndpointNotFound() async throws {
        try await Self.with { server in
            for (method, path) in [
                ("GET", "/v1/search/author?name=Collins"), ("DELETE", "/api/v2/jobs/abc/cancel"),
                ("GET", "/api/v2/imports/abc/results"),
            ] {
                let response = try await server.request(method, path)
                #expect(response.status == 404)
                let message = try Self.object(response)["error"]?["message"]?.stringValue ?? ""
                #expect(message.hasPrefix("Endpoint not found: \(method) "), "\(path): \(response.text)")
            }
        }
        // The contract server routes author search.
        try await Self.with(.contract) { server in
            let response = try await server.get("/v1/search/author?name=Collins")
            #expect(response.status != 404 || !(response.text.contains("Endpoint not found")))
        }
    }

    @Test func batchRefusalsAndAcceptance() async throws {
        try await Self.with { server in
            let cases: [(String, String)] = [
                (#"{"barcodes":["9780441172719"]}"#, "Invalid books array"),
                (#"{"books":[{"title":"Dune"}]}"#, "Missing jobId"),
                (#"{"books":[{"title":""}],"jobId":"j1"}"#, "Invalid title for book at index 0"),
                (#"{"books":[],"jobId":"j1"}"#, "Empty books array"),
            ]
            for (body, message) in cases {
                let response = try await server.postJSON("/api/batch-enrich", body)
                #expect(response.status == 400, "\(body)")
                #expect(try Self.object(response)["error"]?["message"]?.stringValue == message)
            }
            let accepted = try await server.postJSON(
                "/v1/enrichment/batch",
                #"{"books":[{"title":"Dune","isbn":"9780441172719"}],"jobId":"client-1"}"#
            )
            #expect(accepted.status == 202)
            let data = try #require(try Self.object(accepted)["data"])
            #expect(data["jobId"] == "client-1")
            #expect(data["success"] == true)
            #expect(data["authToken"] == nil)
            let token = try #require(data["token"]?.stringValue)
            #expect(!token.isEmpty)
            // No successful answer carries rate-limit headers.
            #expect(accepted.header("X-RateLimit-Limit") == nil)

            // Cancel: 401 without a Bearer token, else 404 "Job not found" for the live job.
            let unauthenticated = try await server.request("DELETE", "/v1/jobs/client-1")
            #expect(unauthenticated.status == 401)
            let refused = try await server.request(
                "DELETE",
                "/v1/jobs/client-1",
                headers: [("Authorization", "Bearer \(token)")]
            )
            #expect(refused.status == 404)
            #expect(try Self.object(refused)["error"]?["message"] == "Job not found")

            // The batch job's SSE stream: the stream's job store does not know it.
            let stream = try await server.get(
                "/api/v2/imports/client-1/stream",
                headers: [("Accept", "text/event-stream")]
            )
            #expect(stream.text.contains("event: error"))
            #expect(stream.text.contains("job_not_found"))

            // A WebSocket request that was not upgraded.
            let plain = try await server.get("/ws/progress?jobId=client-1&token=\(token)")
            #expect(plain.status == 426)
        }
    }

    @Test func enrichReadsIsbnAndCapabilitiesSayFifty() async throws {
        try await Self.with { server in
            let barcodeOnly = try await server.postJSON("/api/v2/books/enrich", #"{"barcode":"9780441172719"}"#)
            #expect(barcodeOnly.status == 400)
            #expect(try Self.object(barcodeOnly)["error"]?["details"]?["field"] == "barcode")

            let caps = try await server.get("/api/v2/capabilities")
            #expect(caps.status == 200)
            let data = try #require(try Self.object(caps)["data"])
            #expect(data["limits"]?["maxBatchSize"] == 50)
            let names = data["features"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
            #expect(names.contains("semantic_search"))
            #expect(!names.contains("similar_books"))
        }
    }

    @Test func tokenRefreshRefusalsAreAll401() async throws {
        try await Self.with { server in
            let accepted = try await server.postJSON(
                "/api/batch-enrich",
                #"{"books":[{"title":"Dune"}],"jobId":"refresh-1"}"#
            )
            let token = try #require(try Self.object(accepted)["data"]?["token"]?.stringValue)
            let early = try await server.postJSON(
                "/api/token/refresh",
                #"{"jobId":"refresh-1","oldToken":"\#(token)"}"#
            )
            #expect(early.status == 401)
            #expect(try Self.object(early)["error"]?["message"] == "Refresh not allowed yet")
            let wrong = try await server.postJSON("/api/token/refresh", #"{"jobId":"refresh-1","oldToken":"nope"}"#)
            #expect(wrong.status == 401)
            #expect(try Self.object(wrong)["error"]?["message"] == "Invalid token")
        }
    }

    @Test func rateLimitedAnswerIsTheLimitersOwnBody() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bts-dialect-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        var configuration = TestServer.testConfiguration()
        configuration.dialect = .production
        configuration.rateLimits[.search] = .perMinute(1)
        try await TestServer.with(configuration) { server in
            _ = try await server.get("/v1/search/title?q=dune")
            let limited = try await server.get("/v1/search/title?q=dune")
            #expect(limited.status == 429)
            let body = try Self.object(limited)
            #expect(body["code"] == "RATE_LIMIT_EXCEEDED")
            #expect(body["error"]?.stringValue?.hasPrefix("Rate limit exceeded. Please try again in") == true)
            #expect(body["success"] == nil)
            let reset = try #require(limited.header("X-RateLimit-Reset").flatMap { Int64($0) })
            #expect(reset > 1_000_000_000_000)  // epoch milliseconds
            #expect(limited.header("Retry-After") != nil)
        }
    }

    @Test func sseRewriterRenamesLaterProcessingEvents() {
        var rewriter = ProductionDialect.SSERewriter()
        let first = rewriter.rewrite(
            ": connection established\nretry: 5000\n\nid: 1-1\nevent: processing\ndata: {\"jobId\":\"j\",\"progress\":0.1,\"processedCount\":1,\"status\":\"processing\",\"totalCount\":10}\n\n"
        )
        #expect(first.contains("event: processing"))
        let later = rewriter.rewrite(
            "id: 1-2\nevent: processing\ndata: {\"jobId\":\"j\",\"progress\":0.5,\"processedCount\":5,\"status\":\"processing\",\"totalCount\":10}\n\n: heartbeat\n\n"
        )
        #expect(later.contains("event: progress"))
        #expect(later.contains("\"message\":\"Processing 5/10\""))
        #expect(later.contains(": heartbeat"))
        let done = rewriter.rewrite(
            "id: 1-3\nevent: completed\ndata: {\"jobId\":\"j\",\"progress\":1,\"processedCount\":10,\"status\":\"completed\",\"totalCount\":10}\n\n"
        )
        #expect(done.contains("\"progress\":100"))
    }

    @Test func webSocketErrorIsWrappedLikeAnEnvelope() throws {
        let message = WSMessage(
            type: .error,
            jobId: "j",
            pipeline: .batchEnrichment,
            timestamp: 1,
            payload: .error(WSErrorPayload(code: "E_BATCH_PROCESSING_FAILED", message: "boom", retryable: true))
        )
        let json = ProductionDialect.webSocketMessage(message, totalCount: 3)
        #expect(json["version"] == "2.0.0")
        #expect(json["payload"]?["error"]?["code"] == "E_BATCH_PROCESSING_FAILED")
        #expect(json["payload"]?["error"]?["message"] == "boom")
        #expect(json["payload"]?["data"] == .null)
        // And the client's decoder reads it back.
        let data = try JSONCoding.encoder().encode(json)
        let decoded = try JSONCoding.decoder().decode(WSMessage.self, from: data)
        guard case .error(let payload) = decoded.payload else {
            Issue.record("not an error")
            return
        }
        #expect(payload.message == "boom")
    }
}
