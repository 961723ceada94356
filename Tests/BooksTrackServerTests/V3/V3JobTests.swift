import AsyncHTTPClient
import BooksTrackContract
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Testing

@testable import BooksTrackServer

/// The v3 job routes (imports, enrichment) and the v3 SSE wire over a live server.
@Suite("v3 jobs", .timeLimit(.minutes(TestTime.minutes(10))))
struct V3JobTests {
    static let threeRows = "Title,Author\nThe Hobbit,Tolkien\n1984,Orwell\nDune,Herbert\n"

    /// A live server with the default modules (job engine tuned by `configure`) over the jobs catalog.
    static func withServer(
        dialect: ServerDialect = .contract,
        configure: @escaping @Sendable (inout JobEngineConfiguration) -> Void = { _ in },
        _ body: (RunningServer) async throws -> Void
    ) async throws {
        var config = ServerConfiguration(port: 0)
        config.dialect = dialect
        try await LiveServer.running(
            config,
            catalog: JobsFakeCatalog.standard,
            modules: [CoreRoutes(), V3Routes(), JobRoutes(configure: configure)],
            logLevel: .error,
            body
        )
    }

    static func upload(_ server: RunningServer, _ csv: String) async throws -> HTTPResult {
        let form = multipart(content: Array(csv.utf8))
        return try await httpRequest(
            .POST,
            server.base + "/v3/jobs/imports",
            headers: [("Content-Type", form.contentType)],
            body: form.body
        )
    }

    /// jobId and token of a 202.
    static func accepted(_ response: HTTPResult) throws -> (id: String, token: String) {
        #expect(response.status == 202)
        let data = try response.data()
        return (try #require(data["jobId"]?.stringValue), try #require(data["token"]?.stringValue))
    }

    /// Reads a v3 stream to its end (30 s deadline).
    static func readStream(
        _ server: RunningServer,
        _ path: String,
        token: String?,
        accept: String = "text/event-stream"
    ) async throws -> (status: Int, text: String) {
        try await withDeadline("v3 stream \(path)") {
            var request = HTTPClientRequest(url: server.base + path)
            request.headers.add(name: "Accept", value: accept)
            if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(Int64(TestTime.seconds(120))))
            var text = Data()
            for try await chunk in response.body { text.append(contentsOf: chunk.readableBytesView) }
            return (Int(response.status.code), String(decoding: text, as: UTF8.self))
        }
    }

    static func json(_ text: String?) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(try #require(text).utf8))
    }

    // MARK: Import → stream → status → results

    @Test func importStreamsWithTheJobToken() async throws {
        try await Self.withServer { server in
            let response = try await Self.upload(server, Self.threeRows)
            let (id, token) = try Self.accepted(response)
            #expect(UUID(uuidString: id) != nil)
            #expect(token.count == 64 && token.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            let data = try response.data()
            #expect(data["status"]?.stringValue == "queued")
            #expect(data["streamUrl"]?.stringValue == "http://127.0.0.1:\(server.port)/v3/jobs/imports/\(id)/stream")
            let links = try response.json()["_links"]
            let jobURL = "http://127.0.0.1:\(server.port)/v3/jobs/imports/\(id)"
            #expect(links?["self"] == ["href": .string(jobURL), "rel": "self", "method": "GET"])
            #expect(links?["stream"] == ["href": .string(jobURL + "/stream"), "rel": "related", "method": "GET"])
            #expect(links?["cancel"] == ["href": .string(jobURL), "rel": "related", "method": "DELETE"])

            let stream = try await Self.readStream(server, "/v3/jobs/imports/\(id)/stream", token: token)
            #expect(stream.status == 200)
            #expect(stream.text.hasPrefix(": connection established\nretry: 5000\n\n"))
            let blocks = sseBlocks(stream.text).filter { $0.event != nil }
            #expect(blocks.first?.event == "progress" && blocks.first?.id?.hasSuffix("-initial") == true)
            let final = try #require(blocks.last)
            #expect(final.event == "completed" && final.id?.hasSuffix("-final") == true)
            let completed = try Self.json(final.data)
            #expect(completed["status"]?.stringValue == "completed" && completed["jobId"]?.stringValue == id)
            let titles = completed["results"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
            #expect(titles == ["The Hobbit", "1984"])
            #expect(blocks.dropLast().allSatisfy { $0.event == "progress" })

            let status = try await httpRequest(.GET, server.base + "/v3/jobs/imports/\(id)")
            let job = try status.data()
            #expect(job["status"]?.stringValue == "completed" && job["type"]?.stringValue == "csv_import")
            #expect(job["progress"]?.doubleValue == 1 && job["processedCount"]?.intValue == 3)
            #expect(job["startTime"]?.stringValue.flatMap(ISO8601.date(from:)) != nil)
            #expect(job["completedTime"]?.stringValue != nil)

            let results = try await httpRequest(.GET, server.base + "/v3/jobs/imports/\(id)/results")
            #expect(results.status == 200)
            // The stored object, as imports.ts @ 075ee29 answers it: the summary with its books.
            #expect(try results.data()["results"]?["books"]?.arrayValue?.count == 2)
            #expect(try results.data()["results"]?["books"]?[0]?["isbn"]?.stringValue == "9780618260300")

            // A finished job's stream: the initial progress (completed), then the final event.
            let again = try await Self.readStream(server, "/v3/jobs/imports/\(id)/stream", token: token)
            let events = sseBlocks(again.text).compactMap(\.event)
            #expect(events == ["progress", "completed"])
            let initial = try Self.json(sseBlocks(again.text).first { $0.event == "progress" }?.data)
            #expect(initial["status"]?.stringValue == "completed" && initial["progress"]?.doubleValue == 1)

            // The cancel of a completed job is a conflict.
            let cancel = try await httpRequest(.DELETE, server.base + "/v3/jobs/imports/\(id)")
            #expect(cancel.status == 409)
            #expect(try cancel.json()["code"]?.stringValue == "CONFLICT")
            #expect(try cancel.json()["detail"]?.stringValue == "Cannot cancel job in completed status")
        }
    }

    @Test func streamRefusals() async throws {
        try await Self.withServer { server in
            let (id, token) = try Self.accepted(try await Self.upload(server, Self.threeRows))
            let path = "/v3/jobs/imports/\(id)/stream"

            let noAccept = try await httpRequest(
                .GET,
                server.base + path,
                headers: [("Authorization", "Bearer \(token)")]
            )
            #expect(noAccept.status == 400)
            #expect(try noAccept.json()["error"]?["code"]?.stringValue == "INVALID_ACCEPT_HEADER")
            #expect(try noAccept.json()["error"]?["hint"]?.stringValue != nil)

            let sse = [("Accept", "text/event-stream")]
            let missing = try await httpRequest(.GET, server.base + path, headers: sse)
            #expect(missing.status == 401)
            #expect(try missing.json()["success"]?.boolValue == false)
            #expect(try missing.json()["error"]?["code"]?.stringValue == "INVALID_TOKEN")
            #expect(
                try missing.json()["error"]?["message"]?.stringValue
                    == "Valid Bearer token required. Obtain from job initiation response."
            )
            // A refreshed-style UUID token never opens a v3 stream.
            let uuid = try await httpRequest(
                .GET,
                server.base + path,
                headers: sse + [("Authorization", "Bearer \(UUID().uuidString.lowercased())")]
            )
            #expect(uuid.status == 401)

            let wrong = String(repeating: "ab", count: 32)
            let mismatch = try await httpRequest(
                .GET,
                server.base + path,
                headers: sse + [("Authorization", "Bearer \(wrong)")]
            )
            #expect(mismatch.status == 401)
            #expect(
                try mismatch.json()["error"]?["message"]?.stringValue
                    == "Invalid auth token. Token does not match this job."
            )

            let unknown = try await Self.readStream(
                server,
                "/v3/jobs/imports/\(UUID().uuidString.lowercased())/stream",
                token: wrong
            )
            #expect(unknown.status == 200)
            let error = try #require(sseBlocks(unknown.text).first { $0.event == "error" })
            #expect(try Self.json(error.data)["error"]?["code"]?.stringValue == "JOB_NOT_FOUND")

            let badID = try await httpRequest(.GET, server.base + "/v3/jobs/imports/not-a-uuid/stream", headers: sse)
            #expect(badID.status == 400)
            #expect(try badID.json()["errors"]?[0]?["field"]?.stringValue == "jobId")
            let badPipeline = try await httpRequest(.GET, server.base + "/v3/jobs/photos/\(id)")
            #expect(badPipeline.status == 404)
            #expect(try badPipeline.json()["error"]?["message"]?.stringValue?.hasPrefix("Endpoint not found") == true)
        }
    }

    // MARK: Cancel

    @Test func cancelIsFailedWithCanceledThenConflict() async throws {
        // Held open: the job is still running when it is cancelled.
        try await Self.withServer(configure: { $0.itemsPerSecond = 0.001 }) { server in
            let rows = (0..<20).map { _ in "The Hobbit,Tolkien" }.joined(separator: "\n")
            let (id, token) = try Self.accepted(try await Self.upload(server, "Title,Author\n" + rows + "\n"))
            let streaming = Task { try await Self.readStream(server, "/v3/jobs/imports/\(id)/stream", token: token) }

            let running = try await httpRequest(.GET, server.base + "/v3/jobs/imports/\(id)/results")
            #expect(running.status == 404)
            #expect(try running.json()["detail"]?.stringValue?.hasPrefix("Job not completed. Current status: ") == true)

            let cancel = try await httpRequest(.DELETE, server.base + "/v3/jobs/imports/\(id)")
            #expect(cancel.status == 200)
            let job = try cancel.data()
            #expect(job["status"]?.stringValue == "failed")
            #expect(job["error"]?["code"]?.stringValue == "CANCELED")
            #expect(job["error"]?["message"]?.stringValue == "Job canceled by user")

            let again = try await httpRequest(.DELETE, server.base + "/v3/jobs/imports/\(id)")
            #expect(again.status == 409)
            #expect(try again.json()["detail"]?.stringValue == "Cannot cancel job in failed status")

            let stream = try await streaming.value
            let final = try #require(sseBlocks(stream.text).last)
            #expect(final.event == "failed")
            #expect(try Self.json(final.data)["error"]?["code"]?.stringValue == "CANCELED")

            let status = try await httpRequest(.GET, server.base + "/v3/jobs/imports/\(id)")
            #expect(try status.data()["error"]?["code"]?.stringValue == "CANCELED")
            let results = try await httpRequest(.GET, server.base + "/v3/jobs/imports/\(id)/results")
            #expect(try results.json()["detail"]?.stringValue == "Job not completed. Current status: failed")
        }
    }

    @Test func unknownJobsAndWrongPipeline() async throws {
        try await Self.withServer { server in
            let unknown = UUID().uuidString.lowercased()
            let missing = try await httpRequest(.GET, server.base + "/v3/jobs/imports/\(unknown)")
            #expect(missing.status == 404)
            #expect(try missing.json()["detail"]?.stringValue == "Import job not found")
            let (id, _) = try Self.accepted(try await Self.upload(server, Self.threeRows))
            let other = try await httpRequest(.GET, server.base + "/v3/jobs/enrichment/\(id)")
            #expect(other.status == 404)
            #expect(try other.json()["detail"]?.stringValue == "Enrichment job not found")
            let bad = try await httpRequest(.GET, server.base + "/v3/jobs/imports/123")
            #expect(bad.status == 400 && bad.header("Content-Type") == "application/problem+json")
        }
    }

    // MARK: Async enrichment

    @Test func asyncEnrichmentRunsOnTheEngine() async throws {
        try await Self.withServer { server in
            let isbns = ["9780618260300", "9780451524935", "9780000000000"] + (0..<57).map { _ in "9780743273565" }
            let body = try JSONEncoder().encode(["isbns": JSONValue.array(isbns.map(JSONValue.string)), "async": true])
            let response = try await httpRequest(
                .POST,
                server.base + "/v3/books/enrich",
                headers: [("Content-Type", "application/json")],
                body: Array(body)
            )
            let (id, token) = try Self.accepted(response)
            #expect(
                try response.data()["streamUrl"]?.stringValue?.hasSuffix("/v3/jobs/enrichment/\(id)/stream") == true
            )

            let stream = try await Self.readStream(server, "/v3/jobs/enrichment/\(id)/stream", token: token)
            let final = try #require(sseBlocks(stream.text).last)
            #expect(final.event == "completed")
            let books = try Self.json(final.data)["results"]?.arrayValue ?? []
            #expect(books.count == 59 && books.first?["vectorized"]?.boolValue == false)

            let status = try await httpRequest(.GET, server.base + "/v3/jobs/enrichment/\(id)")
            #expect(try status.data()["type"]?.stringValue == "batch_enrichment")
            #expect(try status.data()["totalCount"]?.intValue == 60)
            let results = try await httpRequest(.GET, server.base + "/v3/jobs/enrichment/\(id)/results")
            #expect(try results.data()["results"]?.arrayValue?.count == 59)
        }
    }

    // MARK: Import refusals

    @Test func importRefusals() async throws {
        try await Self.withServer(configure: { $0.maxCSVBytes = 64 }) { server in
            let plain = try await httpRequest(
                .POST,
                server.base + "/v3/jobs/imports",
                headers: [("Content-Type", "text/csv")],
                body: Array(Self.threeRows.utf8)
            )
            #expect(plain.status == 400)
            #expect(try plain.json()["code"]?.stringValue == "INVALID_REQUEST")
            let form = multipart(name: "other", content: Array("Title\nDune\n".utf8))
            let noFile = try await httpRequest(
                .POST,
                server.base + "/v3/jobs/imports",
                headers: [("Content-Type", form.contentType)],
                body: form.body
            )
            #expect(noFile.status == 400)
            #expect(try noFile.json()["detail"]?.stringValue == "Missing file in multipart form data")
            let big = try await Self.upload(server, Self.threeRows + String(repeating: "Dune,Herbert\n", count: 10))
            #expect(big.status == 413)
            #expect(try big.json()["code"]?.stringValue == "FILE_TOO_LARGE")
        }
    }

    // MARK: Heartbeat and timeout

    /// Past the server-wide job cap a v3 import is refused with a 503 problem (one client here:
    /// the per-client cap is raised above it).
    @Test func jobsPastTheServerCapAreA503Problem() async throws {
        try await Self.withServer(configure: {
            $0.itemsPerSecond = 0.001  // held open: no item ends during the test
            $0.maxConcurrentJobsPerClient = 5
            $0.maxConcurrentJobs = 2
        }) { server in
            #expect(try await Self.upload(server, Self.threeRows).status == 202)
            #expect(try await Self.upload(server, Self.threeRows).status == 202)
            let refused = try await Self.upload(server, Self.threeRows)
            #expect(refused.status == 503)
            #expect(refused.header("Content-Type") == "application/problem+json")
            #expect(refused.header("Retry-After") == "5")
            let problem = try refused.json()
            #expect(problem["code"]?.stringValue == "SERVICE_UNAVAILABLE")
            #expect(problem["status"]?.doubleValue == 503)
            #expect(problem["detail"]?.stringValue?.contains("as many jobs as it takes (2)") == true)
        }
    }

    @Test func pingsThenTimesOut() async throws {
        let tuning: @Sendable (inout JobEngineConfiguration) -> Void = {
            $0.itemsPerSecond = 0.001  // no progress: the stream times out
            $0.heartbeatInterval = .milliseconds(60)
            $0.streamTimeout = .milliseconds(500)
        }
        try await Self.withServer(configure: tuning) { server in
            let (id, token) = try Self.accepted(try await Self.upload(server, Self.threeRows))
            let stream = try await Self.readStream(server, "/v3/jobs/imports/\(id)/stream", token: token)
            let blocks = sseBlocks(stream.text)
            #expect(blocks.contains { $0.event == "ping" })
            let ping = try Self.json(blocks.first { $0.event == "ping" }?.data)
            #expect(ping["timestamp"]?.stringValue != nil)
            let last = try #require(blocks.last)
            #expect(last.event == "timeout")
            let error = try Self.json(last.data)["error"]
            #expect(error?["code"]?.stringValue == "STREAM_TIMEOUT" && error?["retryable"]?.boolValue == true)
            _ = try await httpRequest(.DELETE, server.base + "/v3/jobs/imports/\(id)")
        }
    }

    // MARK: Resume, expiry, scans, switched-off features

    @Test func resumedStreamSkipsTheInitialEvent() async throws {
        try await Self.withServer(configure: { $0.itemsPerSecond = 4 }) { server in
            let (id, token) = try Self.accepted(try await Self.upload(server, Self.threeRows))
            let recent = "\(Int64(Date().timeIntervalSince1970 * 1000))-progress"
            let resumed = try await withDeadline("resumed stream") {
                var request = HTTPClientRequest(url: server.base + "/v3/jobs/imports/\(id)/stream")
                request.headers.add(name: "Accept", value: "text/event-stream")
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                request.headers.add(name: "Last-Event-ID", value: recent)
                let response = try await HTTPClient.shared.execute(
                    request,
                    timeout: .seconds(Int64(TestTime.seconds(120)))
                )
                #expect(response.headers.first(name: "X-Accel-Buffering") == "no")
                #expect(response.headers.first(name: "Access-Control-Allow-Origin") == "*")
                var text = Data()
                for try await chunk in response.body { text.append(contentsOf: chunk.readableBytesView) }
                return String(decoding: text, as: UTF8.self)
            }
            #expect(resumed.hasPrefix(": reconnected from event \(recent)\nretry: 5000\n\n"))
            #expect(!sseBlocks(resumed).contains { $0.id?.hasSuffix("-initial") == true })
            #expect(sseBlocks(resumed).last?.event == "completed")
            #expect(V3SSE.resumeMilliseconds("1795639106748-progress") == 1_795_639_106_748)
            #expect(V3SSE.resumeMilliseconds("abc") == nil && V3SSE.resumeMilliseconds(nil) == nil)
        }
    }

    @Test func expiredTokenIsRefused() async throws {
        try await Self.withServer(configure: { $0.tokenLifetime = .milliseconds(200) }) { server in
            let (id, token) = try Self.accepted(try await Self.upload(server, Self.threeRows))
            try await Task.sleep(for: .milliseconds(400))
            let response = try await httpRequest(
                .GET,
                server.base + "/v3/jobs/imports/\(id)/stream",
                headers: [("Accept", "text/event-stream"), ("Authorization", "Bearer \(token)")]
            )
            #expect(response.status == 401)
            #expect(try response.errorCode() == "TOKEN_EXPIRED")
        }
    }

    @Test func scansAndSwitchedOffFeatures() async throws {
        var config = ServerConfiguration(port: 0)
        config.disabledFeatures = [.csvImport]
        try await LiveServer.running(
            config,
            catalog: JobsFakeCatalog.standard,
            modules: LocalServer.defaultModules,
            logLevel: .error
        ) { server in
            let scan = try await httpRequest(.GET, server.base + "/v3/jobs/scans/\(UUID().uuidString)")
            #expect(scan.status == 404)
            #expect(try scan.json()["detail"]?.stringValue == "Scan job not found")
            let upload = try await Self.upload(server, Self.threeRows)
            #expect(upload.status == 501)
            #expect(try upload.json()["code"]?.stringValue == "FEATURE_NOT_AVAILABLE")
            let capabilities = try await httpRequest(.GET, server.base + "/v3/capabilities")
            #expect(try capabilities.json()["features"]?["csv_import"]?.boolValue == false)
        }
    }

    @Test func shutdownEndsAnOpenStreamWithStreamError() async throws {
        let temp = try TempDir()
        defer { temp.cleanup() }
        let server = try await LocalServer.start(
            ServerConfiguration(port: 0),
            catalog: JobsFakeCatalog.standard,
            modules: [
                CoreRoutes(), V3Routes(), JobRoutes(dataDirectory: temp.url, configure: { $0.itemsPerSecond = 0.01 }),
            ]
        )
        let (id, token) = try Self.accepted(try await Self.upload(server, Self.threeRows))
        async let stream = Self.readStream(server, "/v3/jobs/imports/\(id)/stream", token: token)
        try await Task.sleep(for: .milliseconds(300))
        await server.shutdown()
        let last = try #require(sseBlocks(try await stream.text).last)
        #expect(last.event == "error")
        #expect(try Self.json(last.data)["error"]?["code"]?.stringValue == "STREAM_ERROR")
    }

    /// The embedded backend's path: an on-demand server answering in-process names its reserved port in
    /// the stream URL, and the stream is read once the socket is opened.
    @Test func inProcessImportNamesTheReservedPort() async throws {
        let temp = try TempDir()
        defer { temp.cleanup() }
        let server = try await LocalServer.start(
            ServerConfiguration(port: 0),
            catalog: JobsFakeCatalog.standard,
            modules: [CoreRoutes(), V3Routes(), JobRoutes(dataDirectory: temp.url, opensLazily: true)],
            listening: .onDemand
        )
        let form = multipart(content: Array(Self.threeRows.utf8))
        var headers = HTTPFields()
        headers[.contentType] = form.contentType
        let local = try await server.responder.respond(
            method: .post,
            target: "/v3/jobs/imports",
            headers: headers,
            body: ByteBuffer(bytes: form.body),
            bodyLimit: 1 << 20
        )
        #expect(local.status == 202)
        let data = try JSONDecoder().decode(JSONValue.self, from: Data(buffer: local.body))["data"]
        let id = try #require(data?["jobId"]?.stringValue)
        #expect(
            data?["streamUrl"]?.stringValue == "http://127.0.0.1:\(server.port)/v3/jobs/imports/\(id)/stream"
        )
        try await server.listen()
        let token = try #require(data?["token"]?.stringValue)
        let stream = try await Self.readStream(server, "/v3/jobs/imports/\(id)/stream", token: token)
        #expect(sseBlocks(stream.text).last?.event == "completed")
        await server.shutdown()
    }

    @Test func aFailedImportEndsWithANestedUpperCaseError() async throws {
        try await Self.withServer { server in
            let (id, token) = try Self.accepted(try await Self.upload(server, "   \n"))
            let stream = try await Self.readStream(server, "/v3/jobs/imports/\(id)/stream", token: token)
            let final = try #require(sseBlocks(stream.text).last)
            #expect(final.event == "failed" && final.id?.hasSuffix("-final") == true)
            let error = try Self.json(final.data)["error"]
            #expect(error?["code"]?.stringValue == "E_CSV_PROCESSING_FAILED")
            #expect(error?["message"]?.stringValue == "the file is empty")
            #expect(error?["retryable"]?.boolValue == false)
            let status = try await httpRequest(.GET, server.base + "/v3/jobs/imports/\(id)")
            #expect(try status.data()["status"]?.stringValue == "failed")
            #expect(try status.data()["error"]?["code"]?.stringValue == "E_CSV_PROCESSING_FAILED")
            let cancel = try await httpRequest(.DELETE, server.base + "/v3/jobs/imports/\(id)")
            #expect(cancel.status == 409)
        }
    }

    // MARK: Production dialect

    @Test func productionQuirks() async throws {
        try await Self.withServer(dialect: .production) { server in
            let response = try await Self.upload(server, Self.threeRows)
            let (id, token) = try Self.accepted(response)
            #expect(
                try response.data()["streamUrl"]?.stringValue
                    == "https://127.0.0.1:\(server.port)/v3/jobs/imports/\(id)/stream"
            )
            let stream = try await Self.readStream(server, "/v3/jobs/imports/\(id)/stream", token: token)
            let final = try #require(sseBlocks(stream.text).last)
            #expect(try Self.json(final.data)["results"]?.arrayValue?.count == 2)
            // results route: always empty in production.
            let results = try await httpRequest(.GET, server.base + "/v3/jobs/imports/\(id)/results")
            #expect(results.status == 200)
            #expect(try results.data()["results"] == [])
            // Jobs are found by id whatever the route's pipeline; problems are sent as application/json.
            let other = try await httpRequest(.GET, server.base + "/v3/jobs/enrichment/\(id)")
            #expect(other.status == 200)
            #expect(try other.data()["type"]?.stringValue == "csv_import")
            let missing = try await httpRequest(.GET, server.base + "/v3/jobs/imports/\(UUID().uuidString)")
            #expect(missing.status == 404)
            #expect(missing.header("Content-Type") == "application/json")
            #expect(try missing.json()["instance"]?.stringValue?.hasPrefix("https://127.0.0.1:") == true)
            // An unknown job's token is refused before any stream.
            let unknown = try await httpRequest(
                .GET,
                server.base + "/v3/jobs/imports/\(UUID().uuidString.lowercased())/stream",
                headers: [("Accept", "text/event-stream"), ("Authorization", "Bearer \(token)")]
            )
            #expect(unknown.status == 401)
            #expect(try unknown.errorCode() == "INVALID_TOKEN")
        }
    }
}
