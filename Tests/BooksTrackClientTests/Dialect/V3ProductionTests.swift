import BooksTrackClient
import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOFoundationCompat
import ServerTestSupport
import TestSupport
import Testing

/// A server shaped like production 3.4.3 (bendv3 @ e40ae5d; fixtures in
/// `Fixtures/source/v3/`, their sources in its SOURCES.md): only v3 routes; everything else is
/// the router's `Endpoint not found: METHOD PATH` 404.
func productionV3(
    _ router: Router<BasicRequestContext>,
    hits: HitCounter,
    seen: SynchronizedBox<[String]>,
    weekly: Bool = true,
    jobs: Bool = true,
    extra: (Router<BasicRequestContext>) -> Void = { _ in }
) {
    let problemHeaders: HTTPFields = [.contentType: "application/problem+json"]
    router.get("/v3/capabilities") { _, _ in
        hits.hit("caps")
        return Reply.fixture("source/v3/capabilities.json")
    }
    router.get("/v3/books/search") { request, _ in
        hits.hit("search")
        seen.mutate { $0.append("search " + (request.uri.query ?? "")) }
        // `offset` is ignored there; only `page` moves.
        return Reply.fixture(
            request.uri.queryParameters["page"] == "2" ? "source/v3/search-page2.json" : "source/v3/search-page1.json"
        )
    }
    router.get("/v3/books/{isbn}") { request, context in
        let isbn = context.parameters.get("isbn") ?? ""
        seen.mutate { $0.append("book \(isbn)") }
        guard isbn.utf8.count == 10 || isbn.utf8.count == 13, isbn.utf8.allSatisfy({ (0x30...0x39).contains($0) })
        else {
            return Reply.json(
                Fixtures.text("source/v3/problem-invalid-isbn.json"),
                status: .badRequest,
                headers: problemHeaders
            )
        }
        if isbn == "9780000000002" {
            return Reply.json(
                Fixtures.text("source/v3/problem-book-not-found.json"),
                status: .notFound,
                headers: problemHeaders
            )
        }
        return Reply.fixture("source/v3/book.json")
    }
    router.post("/v3/books/enrich") { request, _ in
        let body = try await request.body.collect(upTo: 1 << 20)
        seen.mutate { $0.append("enrich " + String(buffer: body)) }
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(buffer: body))
        let count = json["isbns"]?.arrayValue?.count ?? 0
        if count > 50, json["async"]?.boolValue != true {
            return Reply.json(
                Fixtures.text("source/v3/problem-sync-limit.json"),
                status: .badRequest,
                headers: problemHeaders
            )
        }
        return Reply.json(Fixtures.text("source/v3/job-accepted.json"), status: .accepted)
    }
    extra(router)
    // Jobs: any pipeline's routes find the job (production keys job objects by id alone).
    let sse = Fixtures.text("source/v3/sse-completed.txt")
    router.post("/v3/jobs/imports") { request, _ in
        let body = try await request.body.collect(upTo: 16 << 20)
        seen.mutate { $0.append("import " + String(buffer: body)) }
        hits.hit("import")
        return Reply.json(Fixtures.text("source/v3/job-accepted.json"), status: .accepted)
    }
    router.post("/v3/jobs/scans") { request, _ in
        let body = try await request.body.collect(upTo: 60 << 20)
        seen.mutate { $0.append("scan " + String(decoding: body.readableBytesView.prefix(400), as: UTF8.self)) }
        hits.hit("scan")
        return Reply.json(Fixtures.text("source/v3/job-accepted.json"), status: .accepted)
    }
    router.get("/v3/jobs/scans/{id}/stream") { _, _ in
        Reply.text(Fixtures.text("source/v3/sse-scan-completed.txt"), status: .ok, contentType: "text/event-stream")
    }
    router.get("/v3/jobs/scans/{id}/results") { _, _ in Reply.fixture("source/v3/job-results-empty.json") }
    for pipeline in jobs ? ["imports", "enrichment"] : [] {
        router.get(RouterPath("/v3/jobs/\(pipeline)/{id}/stream")) { request, _ in
            hits.hit("stream")
            guard
                request.headers[.authorization]
                    == "Bearer 5f1c0a3e9b7d2c4a6e8f0b1d3c5a7e9f1b3d5c7a9e0f2b4d6c8a0e1f3b5d7c9a"
            else {
                return Reply.json(
                    #"{"success":false,"error":{"code":"INVALID_TOKEN","message":"Invalid auth token. Token does not match this job."}}"#,
                    status: .unauthorized
                )
            }
            return Reply.text(sse, status: .ok, contentType: "text/event-stream")
        }
        router.get(RouterPath("/v3/jobs/\(pipeline)/{id}")) { _, _ in
            hits.hit("status")
            return Reply.json(
                #"{"success":true,"data":{"jobId":"0b6c1f0e-1d9a-4b8e-9a57-5c3e2f1a7d10","type":"csv_import","status":"completed","progress":1,"processedCount":2,"totalCount":2,"startTime":"2026-11-25T20:00:00.000Z","completedTime":"2026-11-25T20:00:31.000Z"},"metadata":{}}"#
            )
        }
        router.get(RouterPath("/v3/jobs/\(pipeline)/{id}/results")) { _, _ in
            Reply.fixture("source/v3/job-results-empty.json")
        }
        router.delete(RouterPath("/v3/jobs/\(pipeline)/{id}")) { _, _ in
            Reply.json(Fixtures.text("source/v3/problem-conflict.json"), status: .conflict)
        }
    }
    if weekly {
        router.get("/v3/recommendations/weekly") { request, _ in
            seen.mutate { $0.append("weekly " + (request.uri.query ?? "")) }
            return Reply.json(
                #"{"success":true,"data":{"weekOf":"2026-11-22","recommendations":[{"isbn":"9780439023481","title":"The Hunger Games","author":"Suzanne Collins","reason":"Trending this week"}],"count":1,"totalAvailable":1},"metadata":{}}"#
            )
        }
    }
    let gone: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
        hits.hit("gone")
        let body =
            #"{"success":false,"data":null,"metadata":{"timestamp":"2026-11-25T20:00:00.000Z"},"error":{"message":"Endpoint not found: \#(request.method.rawValue) \#(request.uri.path)","code":"NOT_FOUND","details":{}}}"#
        return Reply.json(body, status: .notFound)
    }
    for path in [
        "/v1/search/isbn", "/v1/search/title", "/v1/search/author", "/v1/search/advanced", "/v1/search/similar",
        "/api/v2/search", "/api/v2/capabilities", "/api/v2/recommendations/weekly",
    ] {
        router.get(RouterPath(path), use: gone)
    }
}

private func v3API(
    _ url: URL,
    sleeps: SleepRecorder? = nil,
    _ tweak: (inout APIConfiguration) -> Void = { _ in }
) -> BooksTrackAPI {
    makeAPI(url) {
        $0.refreshesJobTokens = false
        if let sleeps { $0.sleep = sleeps.sleep }
        tweak(&$0)
    }
}

@Suite struct V3ProductionTests {
    @Test func negotiatesV3AndReadsItsCapabilities() async throws {
        let hits = HitCounter()
        let seen = SynchronizedBox<[String]>([])
        try await TinyServer.with({ productionV3($0, hits: hits, seen: seen) }) { server in
            let api = v3API(server.baseURL)
            let result = await api.connect()
            #expect(result.error == nil)
            #expect(await api.dialect == .v3)
            #expect(await api.dialectSource == .negotiated)
            #expect(result.capabilities?.version == "3.4.3")
            #expect(hits.count("gone") == 0)
            await api.shutdown()
        }
    }

    /// A route-level 404 is "this server does not offer …", in every dialect, never "Book not found".
    @Test func aMissingRouteIsNotAMissingBook() async throws {
        let hits = HitCounter()
        let seen = SynchronizedBox<[String]>([])
        try await TinyServer.with({ productionV3($0, hits: hits, seen: seen) }) { server in
            let api = v3API(server.baseURL) { $0.dialect = .v1 }
            do throws(BooksTrackError) {
                _ = try await api.searchISBN("9780439023481")
                Issue.record("expected an error")
            } catch {
                #expect(error.code == .routeNotOffered)
                #expect(error.category == .unavailable)
                #expect(error.message.contains("does not offer ISBN lookup"))
                #expect(!error.message.contains("Book not found"))
            }
            await api.shutdown()
        }
    }

    /// ISBN-10 ending in X is sent as ISBN-13 (every router refuses `X`); lookups read the flat book
    /// with authors as objects.
    @Test func anXISBNGoesAsISBN13() async throws {
        let hits = HitCounter()
        let seen = SynchronizedBox<[String]>([])
        try await TinyServer.with({ productionV3($0, hits: hits, seen: seen) }) { server in
            let api = v3API(server.baseURL) { $0.dialect = .v3 }
            let response = try await api.searchISBN("043942089X")
            let expected = try ISBN(parsing: "043942089X").isbn13
            #expect(seen.value.contains("book \(expected)"))
            #expect(response.value.items.first?.authors == ["Suzanne Collins"])
            await api.shutdown()
        }
    }

    /// v3 answers RFC 9457 problem details: the field's message is what the user reads.
    @Test func problemDetailsSayTheFieldMessage() async throws {
        let hits = HitCounter()
        let seen = SynchronizedBox<[String]>([])
        try await TinyServer.with({ router in
            productionV3(router, hits: hits, seen: seen, weekly: false) { r in
                r.get("/v3/recommendations/weekly") { _, _ in
                    Reply.json(Fixtures.text("source/v3/problem-invalid-isbn.json"), status: .badRequest)
                }
            }
        }) { server in
            let api = v3API(server.baseURL) { $0.dialect = .v3 }
            do throws(BooksTrackError) {
                _ = try await api.weeklyRecommendations(limit: 5)
                Issue.record("expected an error")
            } catch {
                #expect(error.message.contains("Must be ISBN-10 or ISBN-13"))
                #expect(error.category == .usage)
                #expect(error.apiError?.fieldErrors.first?.field == "isbn")
                #expect(error.retryable == false)
            }
            do throws(BooksTrackError) {
                _ = try await api.searchISBN("9780000000002")
                Issue.record("expected not found")
            } catch {
                #expect(error.category == .notFound)
            }
            await api.shutdown()
        }
    }

    /// Paging is by `page`: `more` (offset 2, limit 2) asks page 2, never `_links.next` (which carries
    /// the ignored offset and would answer page 1 again).
    @Test func titleSearchPagesByPage() async throws {
        let hits = HitCounter()
        let seen = SynchronizedBox<[String]>([])
        try await TinyServer.with({ productionV3($0, hits: hits, seen: seen) }) { server in
            let api = v3API(server.baseURL) { $0.dialect = .v3 }
            let first = try await api.searchTitle("hunger", limit: 2)
            #expect(first.value.items.map(\.title) == ["The Hunger Games", "Catching Fire"])
            #expect(first.value.totalResults == 3)
            let second = try await api.searchTitle("hunger", limit: 2, offset: 2)
            #expect(second.value.items.map(\.title) == ["Mockingjay"])
            #expect(seen.value.contains { $0.hasPrefix("search ") && $0.contains("page=2") && !$0.contains("offset") })
            await api.shutdown()
        }
    }

    /// `/v3/capabilities` advertises semantic and similar search, but no route serves them: said plainly,
    /// asked once, never "No matches".
    @Test func advertisedButAbsentSemanticIsSaidPlainly() async throws {
        let hits = HitCounter()
        let seen = SynchronizedBox<[String]>([])
        try await TinyServer.with({ productionV3($0, hits: hits, seen: seen) }) { server in
            let api = v3API(server.baseURL)
            _ = await api.connect()
            #expect(await api.availability(of: .semanticSearch) == .available)
            for _ in 0..<2 {
                do throws(BooksTrackError) {
                    _ = try await api.semantic("a boy wizard", limit: 5)
                    Issue.record("expected an error")
                } catch {
                    #expect(error.code == .routeNotOffered)
                    #expect(error.message.contains("does not offer semantic search"))
                    #expect(!error.message.contains("No matches"))
                }
            }
            do throws(BooksTrackError) {
                _ = try await api.similar(isbn: "9780439023481")
                Issue.record("expected an error")
            } catch {
                #expect(error.message.contains("does not offer similar books"))
            }
            do throws(BooksTrackError) {
                _ = try await api.searchAuthor("Collins")
                Issue.record("expected an error")
            } catch {
                #expect(error.message.contains("does not offer author search"))
            }
            // The semantic route was asked once (the second call knew); author search asked its route
            // and the advanced one.
            #expect(hits.count("gone") == 4)
            await api.shutdown()
        }
    }

    /// 60 ISBNs (over the sync limit of 50) go as one async job.
    @Test func sixtyISBNsGoAsAnAsyncJob() async throws {
        let hits = HitCounter()
        let seen = SynchronizedBox<[String]>([])
        try await TinyServer.with({ productionV3($0, hits: hits, seen: seen) }) { server in
            let api = v3API(server.baseURL) { $0.dialect = .v3 }
            let isbns = (0..<60).map { n in makeISBN13("978000000" + String(format: "%03d", n)) }
            let accepted = try await api.batchEnrich(isbns: isbns)
            #expect(accepted.value.jobId == "0b6c1f0e-1d9a-4b8e-9a57-5c3e2f1a7d10")
            #expect(accepted.value.totalCount == 60)
            let body = try #require(seen.value.first { $0.hasPrefix("enrich ") })
            #expect(body.contains("\"async\":true"))
            await api.shutdown()
        }
    }

    /// The job's own token opens its stream; the books come from the `completed` event although the
    /// results route answers `results: []` (production's bug); an initial `progress` and `ping`
    /// events do not end the watch.
    @Test func watchTakesTheBooksFromTheCompletedEvent() async throws {
        let hits = HitCounter()
        let seen = SynchronizedBox<[String]>([])
        let auth = SynchronizedBox<[String]>([])
        try await TinyServer.with({ router in
            productionV3(router, hits: hits, seen: seen, jobs: false) { r in
                r.get("/v3/jobs/enrichment/{id}/stream") { request, _ in
                    auth.mutate { $0.append(request.headers[.authorization] ?? "") }
                    return Reply.text(
                        Fixtures.text("source/v3/sse-completed.txt"),
                        status: .ok,
                        contentType: "text/event-stream"
                    )
                }
                r.get("/v3/jobs/enrichment/{id}/results") { _, _ in
                    hits.hit("results")
                    return Reply.fixture("source/v3/job-results-empty.json")
                }
            }
        }) { server in
            let api = v3API(server.baseURL) { $0.dialect = .v3 }
            let accepted = try await api.batchEnrich(isbns: ["9780439023481", "9780439023498"])
            let events = try await collect(
                api.watch(jobID: accepted.value.jobId, pipeline: .batchEnrichment, token: accepted.value.token)
            )
            #expect(auth.value.first == "Bearer \(accepted.value.token)")
            let rows = events.compactMap { e -> [BatchItemResult]? in
                if case .results(.batch(let rows)) = e { return rows }
                return nil
            }.first
            #expect(rows?.map(\.title) == ["The Hunger Games", "Catching Fire"])
            #expect(rows?.allSatisfy { $0.success } == true)
            if case .finished(.completed) = events.last {
            } else {
                Issue.record("expected completion, got \(String(describing: events.last))")
            }
            // Asked later, the results route's empty list gives the kept books, never "not found by any provider".
            let later = try await api.jobResults(accepted.value.jobId, pipeline: .batchEnrichment)
            if case .batch(let again) = later.value {
                #expect(again.count == 2)
            } else {
                Issue.record("expected batch rows")
            }
            await api.shutdown()
        }
    }

    /// A refreshed token is a UUID no v3 stream accepts: the watch polls the status route and finishes.
    @Test func aRefreshedTokenFallsBackToPolling() async throws {
        let hits = HitCounter()
        let seen = SynchronizedBox<[String]>([])
        try await TinyServer.with({ router in
            productionV3(router, hits: hits, seen: seen, jobs: false) { r in
                r.get("/v3/jobs/imports/{id}/stream") { _, _ in
                    hits.hit("stream")
                    return Reply.text("", status: .unauthorized)
                }
                r.get("/v3/jobs/imports/{id}") { _, _ in
                    hits.hit("status")
                    return Reply.json(
                        #"{"success":true,"data":{"jobId":"7f8e3c1a-2b4d-4e6f-8a9b-0c1d2e3f4a5b","type":"csv_import","status":"completed","progress":1,"processedCount":2,"totalCount":2,"startTime":"2026-11-25T20:00:00.000Z"},"metadata":{}}"#
                    )
                }
                r.get("/v3/jobs/imports/{id}/results") { _, _ in Reply.fixture("source/v3/job-results-empty.json") }
            }
        }) { server in
            let sleeps = SleepRecorder()
            let api = v3API(server.baseURL, sleeps: sleeps) { $0.dialect = .v3 }
            let events = try await collect(
                api.watch(
                    jobID: "7f8e3c1a-2b4d-4e6f-8a9b-0c1d2e3f4a5b",
                    pipeline: .csvImport,
                    token: UUID().uuidString.lowercased()
                )
            )
            #expect(hits.count("stream") == 0)
            #expect(hits.count("status") >= 1)
            if case .finished(.completed) = events.last {
            } else {
                Issue.record("expected completion, got \(String(describing: events.last))")
            }
            await api.shutdown()
        }
    }

    /// Cancel: 200 with `status: failed` + `CANCELED` is a cancel; 409 means the job had finished.
    @Test func cancelReadsCanceledAndConflict() async throws {
        let hits = HitCounter()
        let seen = SynchronizedBox<[String]>([])
        try await TinyServer.with({ router in
            productionV3(router, hits: hits, seen: seen, jobs: false) { r in
                r.delete("/v3/jobs/enrichment/{id}") { _, _ in
                    hits.hit("cancel")
                    return hits.count("cancel") == 1
                        ? Reply.fixture("source/v3/job-canceled.json")
                        : Reply.json(Fixtures.text("source/v3/problem-conflict.json"), status: .conflict)
                }
            }
        }) { server in
            let api = v3API(server.baseURL) { $0.dialect = .v3 }
            let id = "0b6c1f0e-1d9a-4b8e-9a57-5c3e2f1a7d10"
            let canceled = try await api.cancelJob(id, token: "", pipeline: .batchEnrichment)
            #expect(canceled.value.status == .canceled)
            do throws(BooksTrackError) {
                _ = try await api.cancelJob(id, token: "", pipeline: .batchEnrichment)
                Issue.record("expected 409")
            } catch {
                #expect(error.code == .conflict)
                #expect(error.message.contains("already finished"))
            }
            await api.shutdown()
        }
    }

    /// A 503 CIRCUIT_OPEN with `retryAfterMs: 60000` and no `Retry-After` waits the 60 s it asks.
    @Test func circuitOpenWithoutRetryAfterWaitsItsRetryAfterMs() async throws {
        let hits = HitCounter()
        try await TinyServer.with({ router in
            router.get("/v3/books/{isbn}") { _, _ in
                hits.hit("book")
                return hits.count("book") == 1
                    ? Reply.json(Fixtures.text("source/v3/problem-circuit-open.json"), status: .serviceUnavailable)
                    : Reply.fixture("source/v3/book.json")
            }
        }) { server in
            let sleeps = SleepRecorder()
            let api = v3API(server.baseURL, sleeps: sleeps) { $0.dialect = .v3 }
            let response = try await api.searchISBN("9780439023481")
            #expect(response.value.items.first?.title == "The Hunger Games")
            #expect(sleeps.delays.count == 1)
            #expect((sleeps.delays.first ?? .zero) >= .seconds(60))
            await api.shutdown()
        }
    }
}
