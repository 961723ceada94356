import BooksTrackContract
import Foundation
import Testing

@testable import BooksTrackServer

@Suite struct V2RouteTests {
    @Test func textSearchIsEnvelopedWithSearchMode() async throws {
        try await TestServer.with { server async throws in
            let response = try await server.get("/api/v2/search?q=the&limit=2&offset=1")
            #expect(response.status == 200)
            let envelope = try response.decode(Envelope<V2SearchResponse>.self)
            #expect(envelope.metadata.searchMode == .text)
            let data = try #require(envelope.data)
            #expect(data.query == .init(q: "the", mode: .text, limit: 2, offset: 1))
            #expect(data.results.count == 2 && data.totalCount == 3)
            #expect(data.results.allSatisfy { (0...1).contains($0.score) })
            #expect(response.header("X-RateLimit-Class") == "search")
        }
    }

    @Test(arguments: [SearchMode.semantic, .hybrid])
    func semanticModes(_ mode: SearchMode) async throws {
        try await TestServer.with { server async throws in
            let response = try await server.get("/api/v2/search?q=dystopian%20romance&mode=\(mode.rawValue)&limit=3")
            #expect(response.status == 200)
            let envelope = try response.decode(Envelope<V2SearchResponse>.self)
            #expect(envelope.metadata.searchMode == mode)
            #expect(envelope.data?.results.count == 3)
            #expect(response.header("X-RateLimit-Limit") == "5")
            #expect(response.header("X-RateLimit-Class") == "semantic")
        }
    }

    @Test func similarPrefixForcesSimilarMode() async throws {
        try await TestServer.with { server async throws in
            let response = try await server.get("/api/v2/search?q=similar:9780439023481&mode=text&limit=2")
            #expect(response.status == 200)
            let envelope = try response.decode(Envelope<V2SearchResponse>.self)
            #expect(envelope.metadata.searchMode == .similar)
            #expect(envelope.data?.query.q == "9780439023481")
            #expect(envelope.data?.results.count == 2)
            #expect(envelope.data?.results.contains { $0.isbn == "9780439023481" } == false)
            #expect(response.header("X-RateLimit-Class") == "similar")
            let unknown = try await server.get("/api/v2/search?q=similar:9780451524935")
            #expect(unknown.status == 404 && unknown.errorCode == "NOT_FOUND")
            let bad = try await server.get("/api/v2/search?q=similar:12")
            #expect(bad.status == 400 && bad.errorCode == "INVALID_ISBN")
        }
    }

    @Test func v2Validation() async throws {
        try await TestServer.with { server async throws in
            #expect(try await server.get("/api/v2/search").errorCode == "MISSING_PARAMETER")
            #expect(try await server.get("/api/v2/search?q=x&mode=psychic").errorCode == "INVALID_REQUEST")
            #expect(try await server.get("/api/v2/search?q=x&limit=51").errorCode == "INVALID_REQUEST")
            #expect(try await server.get("/api/v2/search?q=x&limit=0").errorCode == "INVALID_REQUEST")
            #expect(try await server.get("/api/v2/search?q=x&offset=-1").errorCode == "INVALID_REQUEST")
            let long = String(repeating: "b", count: 400)
            let response = try await server.get("/api/v2/search?q=\(long)")
            #expect(try response.decode(Envelope<V2SearchResponse>.self).data?.query.q.count == 200)
        }
    }

    @Test func similarBooksIsBare() async throws {
        try await TestServer.with { server async throws in
            let response = try await server.get("/v1/search/similar?isbn=9780439023481&limit=3")
            #expect(response.status == 200)
            #expect(response.header("X-Cache") == "MISS")
            let body = try response.decode(SimilarBooksResponse.self)
            #expect(body.sourceISBN == "9780439023481" && body.total == 3 && body.results.count == 3)
            #expect(!body.results.contains { $0.isbn == "9780439023481" })
            let raw = try response.decode([String: JSONValue].self)
            #expect(raw["success"] == nil && raw["source_isbn"] != nil)
            #expect(try await server.get("/v1/search/similar?isbn=9780439023481&limit=3").header("X-Cache") == "HIT")
        }
    }

    @Test func similarBooksErrors() async throws {
        var catalog = FakeCatalog()
        catalog.withoutVectors = ["9780061120084"]
        try await TestServer.with(catalog: catalog) { server async throws in
            #expect(try await server.get("/v1/search/similar?isbn=9780451524935").status == 404)
            #expect(try await server.get("/v1/search/similar?isbn=9780061120084").errorCode == "NOT_FOUND")
            #expect(try await server.get("/v1/search/similar?isbn=97804").errorCode == "INVALID_ISBN")
            #expect(try await server.get("/v1/search/similar").errorCode == "MISSING_PARAMETER")
            #expect(
                try await server.get("/v1/search/similar?isbn=9780439023481&limit=51").errorCode == "INVALID_REQUEST"
            )
        }
    }

    @Test func capabilitiesAreTruthful() async throws {
        try await TestServer.with { server async throws in
            let response = try await server.get("/api/v2/capabilities")
            #expect(response.status == 200)
            let strict = try response.decode(CapabilitiesResponse.self)
            #expect(strict.features == CapabilitiesResponse.allFeatures(true))
            #expect(strict.limits.semanticSearchRPM == 5 && strict.limits.textSearchRPM == 100)
            // The limits are the contract's one home (JobLimits), not a second copy in the body.
            #expect(
                strict.limits.csvMaxRows == JobLimits.maxCSVRows && strict.limits.maxBatchSize == JobLimits.maxBatchSize
            )
            let raw = try response.decode(Capabilities.self).limits.raw
            #expect(raw["max_csv_bytes"]?.intValue == JobLimits.maxCSVBytes)
            #expect(strict.version == ServerConfiguration.defaultVersion)
        }
        var config = TestServer.testConfiguration()
        config.rateLimits[.semantic] = .perMinute(12)
        config.disabledFeatures = [.semanticSearch, .csvImport]
        try await TestServer.with(config) { server async throws in
            let caps = try await server.get("/api/v2/capabilities").decode(Capabilities.self)
            #expect(caps.isEnabled(.semanticSearch) == false && caps.isEnabled(.csvImport) == false)
            #expect(caps.isEnabled(.similarBooks) == true)
            #expect(caps.limits.semanticSearchRPM == 12)
        }
        config.rateLimitsEnabled = false
        try await TestServer.with(config) { server async throws in
            let caps = try await server.get("/api/v2/capabilities").decode(Capabilities.self)
            #expect(caps.limits.semanticSearchRPM == nil && caps.limits.textSearchRPM == nil)
            #expect(caps.limits.raw["rate_limits_enabled"] == .bool(false))
        }
    }

    @Test func capabilitiesOnlyClaimFeaturesSomeModuleServes() async throws {
        try await TestServer.with(modules: [CoreRoutes()]) { server async throws in
            let caps = try await server.get("/api/v2/capabilities").decode(CapabilitiesResponse.self)
            #expect(caps.features["semantic_search"] == true && caps.features["similar_books"] == true)
            #expect(caps.features["weekly_recommendations"] == true)
            #expect(caps.features["csv_import"] == false && caps.features["batch_enrichment"] == false)
            #expect(caps.features["sse_progress"] == false && caps.features["job_cancellation"] == false)
        }
    }

    @Test(arguments: [
        (ServerFeature.semanticSearch, "/api/v2/search?q=x&mode=semantic"),
        (.semanticSearch, "/api/v2/search?q=x&mode=hybrid"),
        (.similarBooks, "/v1/search/similar?isbn=9780439023481"),
        (.similarBooks, "/api/v2/search?q=similar:9780439023481"),
        (.weeklyRecommendations, "/api/v2/recommendations/weekly"),
    ])
    func disabledFeatureIs503(_ feature: ServerFeature, _ path: String) async throws {
        var config = TestServer.testConfiguration()
        config.disabledFeatures = [feature]
        try await TestServer.with(config) { server async throws in
            let response = try await server.get(path)
            #expect(response.status == 503)
            #expect(response.header("X-Error-Type") == "FEATURE_NOT_AVAILABLE")
            #expect(try response.failure.error?.retryable == false)
            let caps = try await server.get("/api/v2/capabilities").decode(CapabilitiesResponse.self)
            #expect(caps.features[feature.rawValue] == false)
            // Text search stays available.
            #expect(try await server.get("/api/v2/search?q=gatsby").status == 200)
        }
    }

    @Test func weeklyRecommendations() async throws {
        // 2027-01-14 is a Thursday.
        let clock = ManualClock(Date(timeIntervalSince1970: 1_799_928_000))
        try await TestServer.with(clock: clock) { server async throws in
            let response = try await server.get("/api/v2/recommendations/weekly?limit=3")
            #expect(response.status == 200)
            let body = try response.decode(WeeklyRecommendationsResponse.self)
            #expect(body.weekOf == "2027-01-11")
            #expect(body.nextRefresh.hasPrefix("2027-01-18T00:00:00"))
            #expect(body.books.count == 3 && body.books.allSatisfy { !$0.reason.isEmpty })
            #expect(ISO8601.date(from: body.generatedAt) == clock.now)
            #expect(try await server.get("/api/v2/recommendations/weekly?limit=0").errorCode == "INVALID_REQUEST")
        }
        var empty = FakeCatalog()
        empty.hasRecommendations = false
        try await TestServer.with(catalog: empty) { server async throws in
            let response = try await server.get("/api/v2/recommendations/weekly")
            #expect(response.status == 404 && response.errorCode == "NOT_FOUND")
        }
    }

    @Test func isoWeekBoundaries() {
        let utc = TimeZone(identifier: "UTC")
        #expect(utc != nil)
        // Monday 00:00 itself and Sunday 23:59:59 belong to the same week.
        let monday = ISOWeek(containing: Date(timeIntervalSince1970: 1_799_625_600))  // 2027-01-11T00:00Z
        let sunday = ISOWeek(containing: Date(timeIntervalSince1970: 1_800_230_399))  // 2027-01-17T23:59:59Z
        #expect(monday.mondayString == "2027-01-11" && sunday.mondayString == "2027-01-11")
        #expect(monday.nextMonday == Date(timeIntervalSince1970: 1_800_230_400))
    }
}
