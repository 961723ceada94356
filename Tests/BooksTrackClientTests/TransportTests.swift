import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird
import NIOFoundationCompat
import Testing

@testable import BooksTrackClient

let okSearch =
    #"{"success":true,"data":{"works":[],"editions":[],"authors":[],"resultCount":0},"metadata":{"timestamp":"2026-01-01T00:00:00Z"}}"#

func makeAPI(_ url: URL, _ tweak: (inout APIConfiguration) -> Void = { _ in }) -> BooksTrackAPI {
    var config = APIConfiguration(baseURL: url)
    config.jitterSeed = 7
    tweak(&config)
    return BooksTrackAPI(configuration: config)
}

@Suite struct TransportTests {
    @Test func tenConcurrentIdenticalGETsShareOneRequest() async throws {
        let hits = HitCounter()
        try await TinyServer.with({ router in
            router.get("/v1/search/title") { _, _ in
                hits.hit("title")
                try await Task.sleep(for: .milliseconds(300))
                return Reply.json(okSearch)
            }
        }) { server in
            let api = makeAPI(server.baseURL)
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<10 { group.addTask { try await api.searchTitle("dune").info.coalesced } }
                var flags: [Bool] = []
                for try await f in group { flags.append(f) }
                return flags
            }
            #expect(results.count == 10)
            #expect(results.filter { $0 }.count == 9)
            #expect(hits.count("title") == 1)
            #expect(await api.statistics.coalesced == 9)
            await api.shutdown()
        }
    }

    @Test func isbnCacheHonoursMaxAge() async throws {
        let hits = HitCounter()
        let clock = SynchronizedBox(Date(timeIntervalSince1970: 1_000_000))
        try await TinyServer.with({ router in
            router.get("/v1/search/isbn") { _, _ in
                hits.hit("isbn")
                return Reply.json(okSearch, headers: [.cacheControl: "public, max-age=60"])
            }
        }) { server in
            let api = makeAPI(server.baseURL) { $0.now = { clock.value } }
            let first = try await api.searchISBN("9780441172719")
            #expect(!first.info.cacheHit)
            let second = try await api.searchISBN("978-0-441-17271-9")
            #expect(second.info.cacheHit)
            #expect(hits.count("isbn") == 1)
            clock.mutate { $0 = $0.addingTimeInterval(61) }
            let third = try await api.searchISBN("9780441172719")
            #expect(!third.info.cacheHit)
            #expect(hits.count("isbn") == 2)
            await api.shutdown()
            // Cache off: every call goes to the server.
            let uncached = makeAPI(server.baseURL) { $0.cachePolicy = .off }
            _ = try await uncached.searchISBN("9780441172719")
            _ = try await uncached.searchISBN("9780441172719")
            #expect(hits.count("isbn") == 4)
            await uncached.shutdown()
        }
    }

    @Test func rateLimit429IsWaitedExactlyAsTold() async throws {
        let hits = HitCounter()
        let recorder = SleepRecorder()
        try await TinyServer.with({ router in
            router.get("/v1/search/title") { _, _ in
                hits.hit("t")
                if hits.count("t") == 1 {
                    return Reply.json(
                        #"{"error":"Rate limit exceeded. Please try again in 7 seconds.","code":"RATE_LIMIT_EXCEEDED","details":{"retryAfter":7,"requestsRemaining":0,"requestsLimit":100,"endpoint":"/v1/search/title"}}"#,
                        status: .tooManyRequests,
                        headers: [HTTPField.Name("Retry-After")!: "7"]
                    )
                }
                return Reply.json(
                    okSearch,
                    headers: [
                        HTTPField.Name("X-RateLimit-Limit")!: "100", HTTPField.Name("X-RateLimit-Remaining")!: "99",
                    ]
                )
            }
        }) { server in
            let progress = SynchronizedBox<[RetryProgress]>([])
            let api = makeAPI(server.baseURL) { $0.sleep = recorder.sleep }
            await api.setRetryHandler { p in progress.mutate { $0.append(p) } }
            let response = try await api.searchTitle("dune")
            #expect(response.info.attempts == 2)
            #expect(recorder.delays == [.seconds(7)])
            #expect(progress.value.first?.attempt == 2)
            #expect(progress.value.first?.message.contains("retrying 2/3 in 7 s") == true)
            #expect(hits.count("t") == 2)
            #expect(await api.budget(for: .search).remaining == 99)
            await api.shutdown()
        }
    }

    @Test func notFoundAndBadRequestAreNeverRetried() async throws {
        let hits = HitCounter()
        let recorder = SleepRecorder()
        try await TinyServer.with({ router in
            router.get("/v1/search/title") { _, _ in
                hits.hit("400")
                return Reply.json(
                    #"{"success":false,"data":null,"metadata":{"timestamp":"x"},"error":{"code":"MISSING_PARAMETER","message":"q required","retryable":false}}"#,
                    status: .badRequest
                )
            }
            router.get("/api/v2/imports/{id}") { _, _ in
                hits.hit("404")
                return Reply.json(
                    #"{"success":false,"data":null,"metadata":{"timestamp":"x"},"error":{"code":"NOT_FOUND","message":"no job","retryable":false}}"#,
                    status: .notFound
                )
            }
        }) { server in
            let api = makeAPI(server.baseURL) { $0.sleep = recorder.sleep }
            await #expect(throws: BooksTrackError.self) { _ = try await api.searchTitle("") }
            do {
                _ = try await api.jobStatus("nope")
                Issue.record("expected 404")
            } catch let error as BooksTrackError {
                #expect(error.category == .notFound)
                #expect(error.message == "Job nope not found.")
            }
            #expect(hits.count("400") == 1)
            #expect(hits.count("404") == 1)
            #expect(recorder.delays.isEmpty)
            await api.shutdown()
        }
    }

    @Test func proxyHTML502IsRetriedThenReportedClearly() async throws {
        let hits = HitCounter()
        let recorder = SleepRecorder()
        try await TinyServer.with({ router in
            router.get("/v1/search/title") { _, _ in
                hits.hit("t")
                return Reply.text(Fixtures.text("proxy-502.html"), status: .badGateway)
            }
        }) { server in
            let api = makeAPI(server.baseURL) { $0.sleep = recorder.sleep }
            do {
                _ = try await api.searchTitle("x")
                Issue.record("expected failure")
            } catch let error as BooksTrackError {
                #expect(error.message == "The server's proxy returned an HTML error page (502 Bad Gateway).")
                #expect(error.category == .network)
                #expect(error.attempts == 3)
            }
            #expect(hits.count("t") == 3)
            #expect(recorder.delays.count == 2)
            await api.shutdown()
        }
    }

    @Test func traceMasksSecrets() async throws {
        let events = SynchronizedBox<[TraceEvent]>([])
        try await TinyServer.with({ router in
            router.delete("/v1/jobs/{id}") { _, _ in
                Reply.json(
                    #"{"success":true,"data":{"jobId":"j1","status":"canceled","message":"ok","cleanup":{},"authToken":"SECRETTOKEN"},"metadata":{"timestamp":"x"}}"#
                )
            }
        }) { server in
            var url = server.baseURL.absoluteString
            url = url.replacingOccurrences(of: "http://", with: "http://user:SECRETPW@")
            let api = makeAPI(URL(string: url)!) { $0.trace = { e in events.mutate { $0.append(e) } } }
            _ = try? await api.cancelJob("j1", token: "SECRETTOKEN")
            let all = events.value
            #expect(!all.isEmpty)
            let dump = all.map { "\($0)" }.joined()
            #expect(!dump.contains("SECRETTOKEN"))
            #expect(!dump.contains("SECRETPW"))
            #expect(all.first?.requestHeaders.contains(HeaderField(name: "Authorization", value: "Bearer ***")) == true)
            await api.shutdown()
        }
    }

    @Test func authorSearchFallsBackToAdvancedAndRemembers() async throws {
        let hits = HitCounter()
        try await TinyServer.with({ router in
            router.get("/v1/search/author") { _, _ in
                hits.hit("author")
                return Reply.text("Not Found", status: .notFound, contentType: "text/plain")
            }
            router.get("/v1/search/advanced") { request, _ in
                hits.hit("advanced")
                #expect(request.uri.queryParameters["author"] == "Frank Herbert")
                return Reply.json(Fixtures.text("search-title-production.json"))
            }
        }) { server in
            let api = makeAPI(server.baseURL)
            let first = try await api.searchAuthor("Frank Herbert")
            _ = try await api.searchAuthor("Frank Herbert")
            #expect(first.value.items.count >= 0)
            #expect(hits.count("author") == 1)
            #expect(hits.count("advanced") == 2)
            #expect(await api.usesAuthorFallback)
            await api.shutdown()
        }
    }

    @Test func cancellationMidRequestReturnsPromptly() async throws {
        try await TinyServer.with({ router in
            router.get("/v1/search/title") { _, _ in
                try await Task.sleep(for: .seconds(5))
                return Reply.json(okSearch)
            }
        }) { server in
            let api = makeAPI(server.baseURL)
            let task = Task { try await api.searchTitle("slow") }
            try await Task.sleep(for: .milliseconds(100))
            task.cancel()
            let result = await task.result
            switch result {
            case .success: Issue.record("expected cancellation")
            case .failure(let error):
                #expect((error as? BooksTrackError)?.isCancellation == true)
            }
            await api.shutdown()
        }
    }

    /// The CLI's arrangement (APIConfiguration.executor): connections, the client's own tasks and
    /// the caller's work on one event loop. Sequential and concurrent calls are answered, and a
    /// cancelled call and a body that stalls past the deadline end as such, before the server would answer.
    @Test func theClientOnItsOwnEventLoop() async throws {
        let (slowArrived, arrival) = AsyncStream<Void>.makeStream()
        try await TinyServer.with({ router in
            router.get("/v1/search/title") { request, _ in
                if request.uri.queryParameters["q"] == "slow" {
                    arrival.yield()
                    try await Task.sleep(for: .seconds(8))
                }
                return Reply.json(okSearch)
            }
            router.get("/v1/search/isbn") { _, _ in
                // The head at once, then a body that never ends: only the body deadline stops it.
                Response(
                    status: .ok,
                    headers: [.contentType: "application/json"],
                    body: ResponseBody { writer in
                        try await writer.write(ByteBuffer(string: "{"))
                        try await Task.sleep(for: .seconds(8))
                        try await writer.finish(nil)
                    }
                )
            }
        }) { server in
            let executor = ClientEventLoop.executor
            let api = makeAPI(server.baseURL) { $0.executor = executor }
            // Deadline 2 s: before the server's 8 s even when a loaded test run delays timers.
            let quick = makeAPI(server.baseURL) {
                $0.executor = executor
                $0.timeout = .seconds(2)
                $0.retryPolicy = .never
            }
            do {
                let answered = try await Task(executorPreference: executor) { () -> Int in
                    var count = 0
                    for index in 0..<25 where try await api.searchTitle("dune \(index)").info.status == 200 {
                        count += 1
                    }
                    return count
                }.value
                #expect(answered == 25)
                let concurrent = try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<8 {
                        group.addTask(executorPreference: executor) {
                            try await api.searchTitle("q\(index)").info.status
                        }
                    }
                    return try await group.reduce(0) { $0 + ($1 == 200 ? 1 : 0) }
                }
                #expect(concurrent == 8)
                // The body's "{" would end as a decoding error after 8 s: a time-out is the deadline's.
                let stalled = await Task(executorPreference: executor) { try await quick.searchISBN("9780441172719") }
                    .result
                #expect(throws: BooksTrackError.self) { try stalled.get() }
                if case .failure(let error) = stalled {
                    #expect((error as? BooksTrackError)?.kind == .timeout, "\(error)")
                }
                let slow = Task(executorPreference: executor) { try await api.searchTitle("slow", limit: 1) }
                // Cancelled once the server holds the request (mid-request, not before it was sent).
                var arrivals = slowArrived.makeAsyncIterator()
                _ = await arrivals.next()
                slow.cancel()
                // Not cancelled, it would be answered after 8 s.
                let cancelled = await slow.result
                #expect(throws: BooksTrackError.self) { try cancelled.get() }
                if case .failure(let error) = cancelled {
                    #expect((error as? BooksTrackError)?.isCancellation == true, "\(error)")
                }
            } catch {
                Issue.record("\(error)")
            }
            await api.shutdown()
            await quick.shutdown()
        }
    }

    @Test func streamingUploadSendsTheWholeFile() async throws {
        let received = SynchronizedBox<(Int, String)>((0, ""))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bts-upload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("books.csv")
        var csv = "Title,Author,ISBN13\n"
        // 13 digits each: no cell is an ISBN-10, which the upload would send as ISBN-13 (a longer body).
        for i in 0..<5000 { csv += "Book \(i),Author \(i),978\(String(format: "%010d", i))\n" }
        try csv.write(to: file, atomically: true, encoding: .utf8)
        try await TinyServer.with({ router in
            router.post("/api/v2/imports") { request, _ in
                let body = try await request.body.collect(upTo: 10 * 1024 * 1024)
                received.mutate { $0 = (body.readableBytes, request.headers[.contentType] ?? "") }
                return Reply.json(Fixtures.text("import-accepted-minimal.json"), status: .accepted)
            }
        }) { server in
            let api = makeAPI(server.baseURL)
            let accepted = try await api.importCSV(fileAt: file)
            #expect(!accepted.value.jobId.isEmpty)
            let upload = try MultipartFileBody(fileURL: file)
            #expect(received.value.0 == Int(upload.contentLength) - 0)
            #expect(received.value.1.hasPrefix("multipart/form-data; boundary="))
            await #expect(throws: BooksTrackError.self) {
                _ = try await api.importCSV(fileAt: dir.appendingPathComponent("missing.csv"))
            }
            await api.shutdown()
        }
    }

    /// A retried POST that creates work carries the same idempotency key / job id on every attempt.
    @Test func retriedPostsRepeatTheSameKey() async throws {
        let keys = SynchronizedBox<[String]>([])
        let hits = HitCounter()
        let circuit =
            #"{"success":false,"data":null,"metadata":{"timestamp":"x"},"error":{"code":"CIRCUIT_OPEN","message":"down","retryable":true,"retryAfterMs":250,"provider":"isbndb"}}"#
        try await TinyServer.with({ router in
            router.post("/api/v2/books/enrich") { request, _ in
                let body = try await request.body.collect(upTo: 65536)
                let json = try JSONCoding.decoder().decode(JSONValue.self, from: Data(buffer: body))
                keys.mutate { $0.append(json["idempotency_key"]?.stringValue ?? "") }
                hits.hit("enrich")
                if hits.count("enrich") == 1 { return Reply.json(circuit, status: .serviceUnavailable) }
                return Reply.fixture("enrich-production.json")
            }
            router.post("/api/batch-enrich") { request, _ in
                let body = try await request.body.collect(upTo: 65536)
                let json = try JSONCoding.decoder().decode(JSONValue.self, from: Data(buffer: body))
                keys.mutate { $0.append("job:" + (json["jobId"]?.stringValue ?? "")) }
                hits.hit("batch")
                if hits.count("batch") == 1 { return Reply.json(circuit, status: .serviceUnavailable) }
                return Reply.fixture("batch-accepted-production.json", status: .accepted)
            }
        }) { server in
            let recorder = SleepRecorder()
            let api = makeAPI(server.baseURL) { $0.sleep = recorder.sleep }
            _ = try await api.enrich(isbn: "9780441172719")
            _ = try await api.batchEnrich(books: [BatchBook(title: "Dune")])
            let seen = keys.value
            #expect(seen.count == 4)
            #expect(seen[0] == seen[1] && !seen[0].isEmpty)
            #expect(seen[2] == seen[3] && seen[2].count > 4)
            #expect(recorder.delays == [.milliseconds(250), .milliseconds(250)])
            await api.shutdown()
        }
    }
}
