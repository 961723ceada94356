import BooksTrackContract
import BooksTrackServer
import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOHTTP1
import NIOWebSocket
import Testing

/// The job routes plugged into the real server (`LocalServer.start` with `JobRoutes()` as a module):
/// envelope and header middleware, rate-limit classes, feature gates, WebSocket server builder,
/// graceful shutdown with open streams, persistence across a restart.
@Suite("Job routes as a server module", .timeLimit(.minutes(TestTime.minutes(10))))
struct JobModuleIntegrationTests {
    func start(
        _ dir: URL,
        _ tweak: (inout ServerConfiguration) -> Void = { _ in },
        configure: @escaping @Sendable (inout JobEngineConfiguration) -> Void = { _ in }
    ) async throws -> RunningServer {
        var config = ServerConfiguration(port: 0)
        tweak(&config)
        var logger = Logger(label: "jobs-module-test")
        logger.logLevel = .warning
        return try await LocalServer.start(
            config,
            catalog: JobsFakeCatalog.standard,
            logger: logger,
            modules: [CoreRoutes(), JobRoutes(dataDirectory: dir, configure: configure)]
        )
    }

    @Test func rateLimitClassesAndHeaders() async throws {
        let temp = try TempDir()
        defer { temp.cleanup() }
        let server = try await start(temp.url) { $0.rateLimits[.jobs] = RateLimitRule(limit: 2, windowSeconds: 60) }
        do {
            let accepted = try await uploadCSV(server, "Title,Author\nThe Hobbit,Tolkien\n")
            #expect(accepted.status == 202)
            #expect(accepted.header("X-RateLimit-Limit") == "5")
            #expect(accepted.header("X-Response-Format") == "v2.0")
            let id = try #require(try accepted.data()["jobId"]?.stringValue)
            let first = try await httpRequest(.GET, server.base + "/api/v2/imports/\(id)")
            #expect(first.status == 200)
            #expect(first.header("X-RateLimit-Limit") == "2")
            #expect(try await httpRequest(.GET, server.base + "/v1/jobs/\(id)/results").status != 429)
            let third = try await httpRequest(.GET, server.base + "/api/v2/imports/\(id)")
            #expect(third.status == 429)
            #expect(try third.errorCode() == "RATE_LIMIT_EXCEEDED")
            // SSE is not in the jobs class.
            let (status, _, _) = try await readSSE(server, id)
            #expect(status == 200)
            // The capabilities report the job features (this module provides them).
            let capabilities = try await httpRequest(.GET, server.base + "/api/v2/capabilities")
            let features = try capabilities.json()["features"]
            for name in ["csv_import", "batch_enrichment", "sse_progress", "job_cancellation"] {
                #expect(features?[name] == .bool(true), "\(name)")
            }
            // Unknown routes still get the server's 404 envelope.
            #expect(try await httpRequest(.GET, server.base + "/api/v2/nothing-here").status == 404)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    @Test func disabledFeaturesAre503() async throws {
        let temp = try TempDir()
        defer { temp.cleanup() }
        let server = try await start(temp.url) {
            $0.disabledFeatures = [.csvImport, .batchEnrichment, .jobCancellation]
        }
        let upload = try await uploadCSV(server, "Title,Author\nA,B\n")
        #expect(upload.status == 503)
        #expect(try upload.errorCode() == "FEATURE_NOT_AVAILABLE")
        let batch = try await httpRequest(
            .POST,
            server.base + "/api/batch-enrich",
            headers: [("Content-Type", "application/json")],
            body: Array(#"{"barcodes":["0439023483"]}"#.utf8)
        )
        #expect(batch.status == 503)
        let cancel = try await httpRequest(
            .DELETE,
            server.base + "/v1/jobs/x",
            headers: [("Authorization", "Bearer y")]
        )
        #expect(cancel.status == 503)
        await server.shutdown()
    }

    @Test func webSocketThroughTheServerBuilder() async throws {
        let temp = try TempDir()
        defer { temp.cleanup() }
        let server = try await start(temp.url)
        let body = #"{"barcodes":["0439023483"]}"#
        let response = try await httpRequest(
            .POST,
            server.base + "/v1/enrichment/batch",
            headers: [("Content-Type", "application/json")],
            body: Array(body.utf8)
        )
        let id = try #require(try response.data()["jobId"]?.stringValue)
        let token = try #require(try response.data()["authToken"]?.stringValue)
        let collector = WSCollector()
        var headers = HTTPFields()
        headers[.secWebSocketProtocol] = "bookstrack-auth.\(token)"
        let url = "ws://127.0.0.1:\(server.port)/ws/progress?jobId=\(id)"
        let configuration = WebSocketClientConfiguration(additionalHeaders: headers)
        let close = try await withDeadline("WebSocket \(url)") {
            try await WebSocketClient.connect(url: url, configuration: configuration, logger: Logger(label: "ws")) {
                inbound,
                outbound,
                _ in
                try? await outbound.writeTextMessage(#"{"type":"ready"}"#)
                do {
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        if case .text(let text) = message,
                            let m = try? JSONCoding.decoder().decode(WSMessage.self, from: Data(text.utf8))
                        {
                            collector.append(m)
                        }
                    }
                } catch {}
            }
        }
        #expect(close?.closeCode == .normalClosure)
        #expect(collector.all.first?.type == .readyAck)
        #expect(collector.all.last?.type == .jobComplete)
        await server.shutdown()
    }

    @Test func shutdownEndsOpenStreamsAndARestartKeepsResults() async throws {
        let temp = try TempDir()
        defer { temp.cleanup() }
        // A finished job on the first data directory.
        let fast = try await start(temp.url)
        let accepted = try await uploadCSV(fast, "Title,Author\nThe Hobbit,Tolkien\n")
        let finishedID = try #require(try accepted.data()["jobId"]?.stringValue)
        _ = try await readSSE(fast, finishedID)  // returns after `completed`
        await fast.shutdown()

        let slow = try await start(temp.url) { $0.jobs.itemPacing = .seconds(1000) }
        // A running job with an open SSE stream: shutdown ends the stream with a stream_error event.
        let running = try await uploadCSV(slow, "Title,Author\nThe Hobbit,Tolkien\n")
        let runningID = try #require(try running.data()["jobId"]?.stringValue)
        async let stream = readSSE(slow, runningID) { $0.contains("event: processing") }
        _ = try await stream
        async let open = readSSE(slow, runningID)
        try await Task.sleep(for: .milliseconds(100))
        await slow.shutdown()
        let capture = try await open.capture
        #expect(capture.text.contains("event: error\ndata: {\"error\":\"stream_error\""))

        // Restart on the same directory: the finished job's results are there, the running one failed.
        let again = try await start(temp.url)
        let results = try await httpRequest(.GET, again.base + "/api/v2/imports/\(finishedID)/results")
        #expect(results.status == 200)
        #expect(try results.data()["booksCreated"] == 1)
        let status = try await httpRequest(.GET, again.base + "/api/v2/imports/\(runningID)")
        #expect(try status.data()["status"] == "failed")
        #expect(try status.data()["error"]?["code"] == "E_UNKNOWN_ERROR")
        await again.shutdown()
    }

    /// The embedded backend's module (`opensLazily`): nothing is opened until the first job
    /// request; a job store that cannot be opened is an INTERNAL_ERROR answer on job routes only.
    @Test func aLazyEngineOpensAtTheFirstJobRequest() async throws {
        let temp = try TempDir()
        defer { temp.cleanup() }
        var logger = Logger(label: "jobs-module-test")
        logger.logLevel = .warning
        let store = temp.url.appendingPathComponent("jobs.sqlite")
        let server = try await LocalServer.start(
            ServerConfiguration(port: 0),
            catalog: JobsFakeCatalog.standard,
            logger: logger,
            modules: [CoreRoutes(), JobRoutes(dataDirectory: temp.url, opensLazily: true)]
        )
        #expect(try await httpRequest(.GET, server.base + "/health").status == 200)
        #expect(!FileManager.default.fileExists(atPath: store.path), "opened before any job request")
        let accepted = try await uploadCSV(server, "Title,Author\nThe Hobbit,Tolkien\n")
        #expect(accepted.status == 202)
        #expect(FileManager.default.fileExists(atPath: store.path))
        let id = try #require(try accepted.data()["jobId"]?.stringValue)
        #expect(try await httpRequest(.GET, server.base + "/api/v2/imports/\(id)").status == 200)
        await server.shutdown()

        // A data directory that is a file: job routes answer INTERNAL_ERROR, the rest works.
        let blocked = temp.url.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: blocked)
        let broken = try await LocalServer.start(
            ServerConfiguration(port: 0),
            catalog: JobsFakeCatalog.standard,
            logger: logger,
            modules: [CoreRoutes(), JobRoutes(dataDirectory: blocked, opensLazily: true)]
        )
        let refused = try await uploadCSV(broken, "Title,Author\nThe Hobbit,Tolkien\n")
        #expect(refused.status == 500)
        #expect(try refused.errorCode() == "INTERNAL_ERROR")
        let status = try await httpRequest(.GET, broken.base + "/api/v2/imports/abc")
        #expect(status.status == 500)
        #expect(try await httpRequest(.GET, broken.base + "/health").status == 200)
        await broken.shutdown()
    }
}
