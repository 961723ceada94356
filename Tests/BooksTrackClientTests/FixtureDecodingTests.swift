import BooksTrackClient
import BooksTrackContract
import Foundation
import HTTPTypes
import Hummingbird
import Testing

/// Every recorded production shape, served by a tiny server and decoded through the API methods.
@Suite(.onWorkThreads) struct FixtureDecodingTests {
    @Test func productionShapesDecodeThroughTheAPI() async throws {
        try await TinyServer.with({ router in
            router.get("/v1/search/isbn") { _, _ in Reply.fixture("search-isbn-envelope-no-success.json") }
            router.get("/v1/search/title") { request, _ in
                switch request.uri.queryParameters["q"] {
                case "v3": return Reply.fixture("search-v3-books.json")
                case "flat": return Reply.fixture("search-v3-flat-book.json")
                default: return Reply.fixture("search-title-production.json")
                }
            }
            router.get("/v1/search/similar") { request, _ in
                request.uri.queryParameters["limit"] == "1"
                    ? Reply.fixture("similar-production-enveloped.json") : Reply.fixture("similar-production-bare.json")
            }
            router.get("/api/v2/search") { request, _ in
                request.uri.queryParameters["mode"] == "semantic"
                    ? Reply.fixture("v2-search-semantic-empty.json") : Reply.fixture("v2-search-production.json")
            }
            router.get("/api/v2/capabilities") { _, _ in Reply.fixture("capabilities-production.json") }
            router.get("/api/v2/recommendations/weekly") { request, _ in
                request.uri.queryParameters["limit"] == "0"
                    ? Reply.fixture("weekly-production-empty.json") : Reply.fixture("weekly-production.json")
            }
            router.post("/api/v2/books/enrich") { _, _ in Reply.fixture("enrich-production.json") }
            router.post("/api/batch-enrich") { _, _ in
                Reply.fixture("batch-accepted-production.json", status: .accepted)
            }
            router.get("/v1/jobs/{id}/results") { _, _ in Reply.fixture("batch-results-production.json") }
            router.get("/api/v2/imports/{id}/results") { _, _ in Reply.fixture("import-results-production.json") }
            router.get("/api/v2/imports/{id}") { request, context in
                context.parameters.get("id") == "failed"
                    ? Reply.fixture("job-status-failed-production.json") : Reply.fixture("job-status-production.json")
            }
            router.delete("/v1/jobs/{id}") { _, _ in Reply.fixture("cancel-production.json") }
        }) { server in
            let api = makeAPI(server.baseURL)
            _ = try await api.searchISBN("9780441172719")
            #expect(try await api.searchTitle("dune").value.items.isEmpty == false)
            _ = try await api.searchTitle("v3")
            _ = try await api.searchTitle("flat")
            #expect(try await api.similar(isbn: "9780441172719").value.items.isEmpty == false)
            _ = try await api.similar(isbn: "9780441172719", limit: 1)
            _ = try await api.searchV2("dune", mode: .hybrid)
            #expect(try await api.semantic("space opera").value.items.isEmpty)
            let caps = try await api.fetchCapabilities().value
            #expect(caps.dialect == .production)
            #expect(await api.availability(of: .similarBooks) == .available)  // follows semantic_search
            #expect(await api.availability(of: .weeklyRecommendations) != .available)
            #expect(try await api.weeklyRecommendations().value.items.isEmpty == false)
            #expect(try await api.weeklyRecommendations(limit: 0).value.items.isEmpty)
            _ = try await api.enrich(isbn: "9780441172719", provider: .googleBooks)
            let batch = try await api.batchEnrich(books: [BatchBook(title: "Dune", author: "Frank Herbert")])
            #expect(!batch.value.jobId.isEmpty)
            if case .batch(let rows) = try await api.jobResults("b1", pipeline: .batchEnrichment).value {
                #expect(!rows.isEmpty)
            } else {
                Issue.record("expected batch rows")
            }
            if case .csvImport = try await api.jobResults("i1").value {
            } else {
                Issue.record("expected import results")
            }
            _ = try await api.jobStatus("ok")
            #expect(try await api.jobStatus("failed").value.status == .failed)
            _ = try await api.cancelJob("j1", token: "t")
            await api.shutdown()
        }
    }

    @Test func wrongShapeReportsTheCodingPath() async throws {
        try await TinyServer.with({ router in
            router.get("/api/v2/imports/{id}") { _, _ in
                Reply.json(#"{"success":true,"data":{"jobId":"x","status":42},"metadata":{"timestamp":"x"}}"#)
            }
        }) { server in
            let api = makeAPI(server.baseURL)
            do {
                _ = try await api.jobStatus("x")
                Issue.record("expected a decoding error")
            } catch let error as BooksTrackError {
                #expect(error.kind == .decoding)
                #expect(error.decodingFailure?.codingPath.contains("status") == true)
            }
            await api.shutdown()
        }
    }
}

@Suite(.onWorkThreads) struct CapabilitiesTests {
    @Test func diskCacheIsUsedWhenFreshAndWhenOffline() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bts-caps-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let hits = HitCounter()
        let clock = SynchronizedBox(Date(timeIntervalSince1970: 2_000_000))
        let url = try await TinyServer.with({ router in
            router.get("/api/v2/capabilities") { _, _ in
                hits.hit("caps")
                return Reply.json(
                    #"{"features":{"semantic_search":false,"similar_books":true},"limits":{"semantic_search_rpm":5,"text_search_rpm":100,"csv_max_rows":10000,"max_batch_size":100},"version":"t"}"#
                )
            }
        }) { server in
            let api = makeAPI(server.baseURL) {
                $0.cacheDirectory = dir
                $0.now = { clock.value }
            }
            let first = await api.connect()
            #expect(first.source == .server)
            #expect(
                await api.availability(of: .semanticSearch)
                    == .unavailable(reason: "the server has 'semantic_search' switched off")
            )
            #expect(await api.budget(for: .semantic).limit == 5)
            await api.shutdown()
            // A second session within the hour reads the disk cache: no request.
            let again = makeAPI(server.baseURL) {
                $0.cacheDirectory = dir
                $0.now = { clock.value }
            }
            let second = await again.connect()
            if case .cache = second.source {
            } else {
                Issue.record("expected the fresh cache, got \(String(describing: second.source))")
            }
            #expect(hits.count("caps") == 1)
            await again.shutdown()
            return server.baseURL
        }
        // The server is gone: two hours later the stale copy is still used.
        clock.mutate { $0 = $0.addingTimeInterval(7200) }
        let offline = makeAPI(url) {
            $0.cacheDirectory = dir
            $0.now = { clock.value }
            $0.retryPolicy = .never
            $0.connectTimeout = .seconds(1)
        }
        let result = await offline.connect()
        if case .staleCache = result.source {
        } else {
            Issue.record("expected the stale cache, got \(String(describing: result.source))")
        }
        #expect(result.error?.category == .network)
        #expect(await offline.availability(of: .similarBooks) == .available)
        await offline.shutdown()
        // No cache at all: unknown.
        let blank = makeAPI(url) {
            $0.retryPolicy = .never
            $0.connectTimeout = .seconds(1)
        }
        #expect(await blank.connect().capabilities == nil)
        #expect(await blank.availability(of: .similarBooks) == .unknown)
        await blank.shutdown()
    }
}
