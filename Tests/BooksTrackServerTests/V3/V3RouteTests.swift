import BooksTrackContract
import BooksTrackSupport
import Foundation
import Testing

@testable import BooksTrackServer

/// The v3 book, capability and recommendation routes over a live server (real HTTP, port 0).
@Suite("v3 routes", .timeLimit(.minutes(TestTime.minutes(10))))
struct V3RouteTests {
    static var modules: [any ServerRouteModule] { LocalServer.defaultModules }

    static func production() -> ServerConfiguration {
        var config = TestServer.testConfiguration()
        config.dialect = .production
        return config
    }

    static func json(_ response: TestResponse) throws -> JSONValue { try response.decode(JSONValue.self) }

    /// The problem body's essentials.
    static func expectProblem(
        _ response: TestResponse,
        status: Int,
        code: String,
        detail: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> JSONValue {
        let body = try json(response)
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
        #expect(body["code"]?.stringValue == code, sourceLocation: sourceLocation)
        #expect(body["status"]?.intValue == status, sourceLocation: sourceLocation)
        #expect(
            body["type"]?.stringValue
                == "https://api.oooefam.net/errors/" + code.lowercased().replacingOccurrences(of: "_", with: "-"),
            sourceLocation: sourceLocation
        )
        #expect(body["title"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(body["metadata"]?["requestId"]?.stringValue != nil, sourceLocation: sourceLocation)
        if let detail { #expect(body["detail"]?.stringValue == detail, sourceLocation: sourceLocation) }
        return body
    }

    // MARK: Book lookup

    @Test func bookLookupHasLinksETagAnd304() async throws {
        try await TestServer.with(modules: Self.modules) { server in
            let response = try await server.get("/v3/books/9780439023481")
            #expect(response.status == 200)
            let body = try Self.json(response)
            #expect(body["success"]?.boolValue == true)
            let book = try #require(body["data"])
            #expect(book["isbn"]?.stringValue == "9780439023481")
            #expect(book["authors"] == ["Suzanne Collins"])
            #expect(book["provider"]?.stringValue == "alexandria" && book["quality"]?.intValue == 95)
            #expect(body["_links"]?["self"]?["href"]?.stringValue == "/v3/books/9780439023481")
            #expect(body["_links"]?["enrich"] == ["href": "/v3/books/enrich", "rel": "related", "method": "POST"])
            #expect(body["metadata"]?["source"] != nil && body["metadata"]?["cached"]?.boolValue == false)
            #expect(response.header("Cache-Control") == "public, max-age=3600")
            let etag = try #require(response.header("ETag"))
            #expect(etag.hasPrefix("\"9780439023481-") && etag.count == 1 + 13 + 1 + 16 + 1)
            #expect(response.header("X-RateLimit-Class") == "search")

            let again = try await server.get("/v3/books/9780439023481", headers: [("If-None-Match", etag)])
            #expect(again.status == 304 && again.body.isEmpty)
            let stale = try await server.get("/v3/books/9780439023481", headers: [("If-None-Match", "\"x\"")])
            #expect(stale.status == 200)
            #expect(try Self.json(stale)["metadata"]?["cached"]?.boolValue == true)
            #expect(try Self.json(stale)["data"] == book)
            #expect(stale.header("ETag") == etag)

            // An ISBN-10 is looked up by its ISBN-13.
            #expect(try await server.get("/v3/books/0439023483").status == 200)
        }
    }

    @Test func bookLookupRefusals() async throws {
        try await TestServer.with(modules: Self.modules) { server in
            for bad in ["043902348X", "12345", "97804390234811"] {
                let body = try Self.expectProblem(
                    try await server.get("/v3/books/\(bad)"),
                    status: 400,
                    code: "INVALID_REQUEST",
                    detail: "Validation failed"
                )
                #expect(body["errors"]?[0]?["field"]?.stringValue == "isbn")
                #expect(body["errors"]?[0]?["message"]?.stringValue == "Must be ISBN-10 or ISBN-13")
                #expect(body["instance"]?.stringValue == "\(server.running.baseURL.absoluteString)/v3/books/\(bad)")
                #expect(body["retryable"]?.boolValue == false)
            }
            _ = try Self.expectProblem(
                try await server.get("/v3/books/9780451524935"),
                status: 404,
                code: "NOT_FOUND",
                detail: "Book not found"
            )
        }
    }

    @Test func productionAuthorsAreObjects() async throws {
        try await TestServer.with(Self.production(), modules: Self.modules) { server in
            let book = try Self.json(try await server.get("/v3/books/9780439554930"))["data"]
            #expect(book?["authors"]?[0]?["name"]?.stringValue == "J.K. Rowling")
            #expect(book?["authors"]?[1]?["key"]?.stringValue?.hasPrefix("/authors/") == true)
        }
    }

    // MARK: Search

    /// The longest query is the contract's (`SearchPageLimits.queryLength`, 200 characters), as the
    /// client cuts its queries; one character more is refused with the schema's words.
    @Test func theLongestQueryIsTheContracts() async throws {
        try await TestServer.with(modules: Self.modules) { server in
            let longest = String(repeating: "a", count: SearchPageLimits.queryLength)
            #expect(try await server.get("/v3/books/search?q=\(longest)").status == 200)
            let body = try Self.expectProblem(
                try await server.get("/v3/books/search?q=\(longest)a"),
                status: 400,
                code: "INVALID_REQUEST",
                detail: "Validation failed"
            )
            #expect(body["errors"]?[0]?["message"]?.stringValue == "String must contain at most 200 character(s)")
        }
    }

    @Test func searchPagesByPageAndIgnoresOffset() async throws {
        try await TestServer.with(modules: Self.modules) { server in
            let first = try Self.json(try await server.get("/v3/books/search?q=the&limit=1"))
            let data = try #require(first["data"])
            #expect(data["totalCount"]?.intValue == 3)
            #expect(data["results"]?.arrayValue?.count == 1)
            #expect(data["query"] == ["q": "the", "mode": "text", "limit": 1, "offset": 0])
            #expect(first["error"] == .null)
            let next = try #require(first["_links"]?["next"]?["href"]?.stringValue)
            #expect(next == "/v3/books/search?q=the&mode=text&limit=1&offset=1")
            #expect(first["_links"]?["prev"] == nil)
            #expect(
                first["_links"]?["self"]?["href"]?.stringValue == "/v3/books/search?q=the&mode=text&limit=1&offset=0"
            )
            #expect(first["_links"]?["next"]?["rel"]?.stringValue == "next")

            let second = try Self.json(try await server.get("/v3/books/search?q=the&limit=1&page=2"))
            #expect(second["data"]?["query"]?["offset"]?.intValue == 1)
            #expect(second["data"]?["results"]?[0]?["isbn"] != data["results"]?[0]?["isbn"])
            #expect(
                second["_links"]?["prev"]?["href"]?.stringValue == "/v3/books/search?q=the&mode=text&limit=1&offset=0"
            )

            // Following production's `next` link (offset, no page) gives page 1 again.
            let followed = try Self.json(try await server.get(next))
            #expect(followed["data"]?["results"] == data["results"])
        }
    }

    @Test func searchWithoutMatchesAndRefusals() async throws {
        try await TestServer.with(modules: Self.modules) { server in
            let none = try Self.json(try await server.get("/v3/books/search?q=zzzzqqq"))
            #expect(none["data"]?["results"] == [] && none["data"]?["totalCount"]?.intValue == 0)
            #expect(none["_links"] == nil)
            let missing = try Self.expectProblem(
                try await server.get("/v3/books/search"),
                status: 400,
                code: "INVALID_REQUEST"
            )
            #expect(missing["errors"]?[0]?["field"]?.stringValue == "q")
            let limit = try Self.expectProblem(
                try await server.get("/v3/books/search?q=x&limit=101"),
                status: 400,
                code: "INVALID_REQUEST"
            )
            #expect(limit["errors"]?[0]?["field"]?.stringValue == "limit")
            _ = try Self.expectProblem(
                try await server.get("/v3/books/search?q=x&page=0"),
                status: 400,
                code: "INVALID_REQUEST"
            )
        }
    }

    @Test func searchModes() async throws {
        try await TestServer.with(modules: Self.modules) { server in
            let semantic = try await server.get("/v3/books/search?q=the&mode=semantic")
            let body = try Self.expectProblem(semantic, status: 400, code: "INVALID_REQUEST")
            #expect(body["errors"]?[0]?["field"]?.stringValue == "mode")
        }
        try await TestServer.with(Self.production(), modules: Self.modules) { server in
            // Production answers every mode with title matches, echoing the mode.
            let semantic = try Self.json(try await server.get("/v3/books/search?q=the&mode=semantic"))
            #expect(semantic["data"]?["query"]?["mode"]?.stringValue == "semantic")
            #expect(semantic["data"]?["totalCount"]?.intValue == 3)
            let bad = try await server.get("/v3/books/search?q=the&mode=psychic")
            #expect(bad.status == 400 && bad.header("Content-Type") == "application/json")
        }
    }

    // MARK: Enrich (sync)

    @Test func syncEnrich() async throws {
        try await TestServer.with(modules: Self.modules) { server in
            let response = try await server.postJSON(
                "/v3/books/enrich",
                #"{"isbns": ["9780439023481", "0439554934", "9780451524935"]}"#
            )
            #expect(response.status == 200)
            let data = try #require(try Self.json(response)["data"])
            #expect(data["requested"]?.intValue == 3 && data["found"]?.intValue == 2)
            #expect(data["notFound"] == ["9780451524935"])
            #expect(data["books"]?[1]?["isbn"]?.stringValue == "9780439554930")
            #expect(data["books"]?[0]?["vectorized"]?.boolValue == false)
            #expect(response.header("X-RateLimit-Class") == "enrich")

            let barcodes = try await server.postJSON("/v3/books/enrich", #"{"barcodes": ["9780439023481"]}"#)
            #expect(barcodes.status == 200)

            _ = try Self.expectProblem(
                try await server.postJSON("/v3/books/enrich", #"{"isbns": ["9780451524935"]}"#),
                status: 404,
                code: "NOT_FOUND",
                detail: "No books found for provided ISBNs"
            )
        }
    }

    @Test func enrichRefusals() async throws {
        try await TestServer.with(modules: Self.modules) { server in
            let many = (0..<51).map { String(format: "\"978000000%04d\"", $0) }.joined(separator: ",")
            let tooMany = try Self.expectProblem(
                try await server.postJSON("/v3/books/enrich", "{\"isbns\": [\(many)]}"),
                status: 400,
                code: "INVALID_REQUEST",
                detail: "Validation failed"
            )
            #expect(
                tooMany["errors"]?[0]?["message"]?.stringValue
                    == "Sync mode limited to 50 ISBNs. Use async=true for batches >50 (up to 500 ISBNs)"
            )
            let bad = try Self.expectProblem(
                try await server.postJSON("/v3/books/enrich", #"{"isbns": ["9780439023481", "043902348X"]}"#),
                status: 400,
                code: "INVALID_REQUEST"
            )
            #expect(bad["errors"]?[0]?["field"]?.stringValue == "isbns.1")
            #expect(bad["errors"]?[0]?["message"]?.stringValue == "Must be ISBN-10 or ISBN-13")
            _ = try Self.expectProblem(
                try await server.postJSON("/v3/books/enrich", #"{"isbns": []}"#),
                status: 400,
                code: "INVALID_REQUEST"
            )
            _ = try Self.expectProblem(
                try await server.postJSON("/v3/books/enrich", "not json"),
                status: 400,
                code: "INVALID_REQUEST"
            )
        }
    }

    // MARK: Capabilities

    @Test func capabilitiesAreBareAndTruthful() async throws {
        try await TestServer.with(modules: Self.modules) { server in
            let response = try await server.get("/v3/capabilities")
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "public, max-age=300, s-maxage=300")
            let body = try Self.json(response)
            #expect(body["success"] == nil)
            // Served at their v1/v2 routes (v3 has none): true while those routes are on.
            #expect(body["features"]?["semantic_search"]?.boolValue == true)
            #expect(body["features"]?["similar_books"]?.boolValue == true)
            #expect(body["features"]?["csv_import"]?.boolValue == true)
            #expect(body["features"]?["sse_streaming"]?.boolValue == true)
            #expect(body["limits"]?["batch_max_photos"]?.intValue == 50)
            #expect(body["version"]?.stringValue == ServerConfiguration.defaultVersion)
        }
        try await TestServer.with(Self.production(), modules: Self.modules) { server in
            let body = try Self.json(try await server.get("/v3/capabilities"))
            #expect(body["features"]?["semantic_search"]?.boolValue == true)
            #expect(body["features"]?["similar_books"]?.boolValue == true)
            #expect(
                body["limits"] == [
                    "semantic_search_rpm": 10, "text_search_rpm": 60, "csv_max_rows": 1000, "batch_max_photos": 50,
                ]
            )
            #expect(body["version"]?.stringValue == "3.4.3")
        }
    }

    // MARK: Recommendations

    @Test func weeklyRecommendations() async throws {
        // Wednesday 2026-11-25 → the week of Sunday 2026-11-22.
        let clock = ManualClock(Date(timeIntervalSince1970: 1_795_600_000))
        try await TestServer.with(clock: clock, modules: Self.modules) { server in
            let body = try Self.json(try await server.get("/v3/recommendations/weekly?limit=2"))
            let data = try #require(body["data"])
            #expect(data["weekOf"]?.stringValue == "2026-11-22")
            #expect(data["count"]?.intValue == 2 && data["totalAvailable"]?.intValue == 5)
            #expect(data["recommendations"]?[0]?["author"]?.stringValue == "Suzanne Collins")
            #expect(data["recommendations"]?[0]?["reason"]?.stringValue != nil)
            #expect(body["_links"]?["self"]?["href"]?.stringValue == "/v3/recommendations/weekly?limit=2")
            let tooMany = try Self.expectProblem(
                try await server.get("/v3/recommendations/weekly?limit=21"),
                status: 400,
                code: "INVALID_REQUEST"
            )
            #expect(tooMany["errors"]?[0]?["field"]?.stringValue == "limit")

            let personal = try Self.json(try await server.get("/v3/recommendations/personalized?userId=u1&limit=3"))
            #expect(personal["data"]?["strategy"]?.stringValue == "weekly_fallback")
            #expect(personal["data"]?["total"]?.intValue == 3)
            #expect(
                personal["_links"]?["self"]?["href"]?.stringValue
                    == "/v3/recommendations/personalized?limit=3&userId=u1"
            )
            #expect(personal["metadata"]?["source"]?.stringValue == "alexandria")
        }
        var empty = FakeCatalog()
        empty.hasRecommendations = false
        try await TestServer.with(catalog: empty, modules: Self.modules) { server in
            _ = try Self.expectProblem(
                try await server.get("/v3/recommendations/weekly"),
                status: 404,
                code: "NOT_FOUND",
                detail: "No recommendations available for this week"
            )
            _ = try Self.expectProblem(
                try await server.get("/v3/recommendations/personalized"),
                status: 404,
                code: "NOT_FOUND",
                detail: "No recommendations available at this time"
            )
        }
    }

    @Test func sundayOfTheWeek() {
        let sunday = Date(timeIntervalSince1970: 1_795_305_600)  // 2026-11-22 00:00 UTC, a Sunday
        #expect(V3Handlers.sunday(onOrBefore: sunday) == sunday)
        #expect(V3Handlers.sunday(onOrBefore: sunday.addingTimeInterval(6 * 86_400 + 86_399)) == sunday)
        #expect(V3Handlers.sunday(onOrBefore: sunday.addingTimeInterval(-1)) == sunday.addingTimeInterval(-7 * 86_400))
    }

    // MARK: Unknown routes, limits, faults

    @Test func unknownV3RouteIsTheLegacy404() async throws {
        try await TestServer.with(modules: Self.modules) { server in
            let response = try await server.get("/v3/books/similar/extra/path")
            #expect(response.status == 404)
            let body = try Self.json(response)
            #expect(body["success"]?.boolValue == false && body["data"] == .null)
            #expect(body["error"]?["message"]?.stringValue == "Endpoint not found: GET /v3/books/similar/extra/path")
            #expect(body["error"]?["code"]?.stringValue == "NOT_FOUND")
            #expect(body["error"]?["details"] == ["method": "GET", "path": "/v3/books/similar/extra/path"])
            let semantic = try await server.get("/v3/search/semantic?q=x")
            #expect(semantic.status == 404)
            #expect(try Self.json(semantic)["error"]?["message"]?.stringValue?.hasPrefix("Endpoint not found") == true)
        }
    }

    @Test func rateLimitIsAProblem() async throws {
        var config = TestServer.testConfiguration()
        config.rateLimits[.search] = .perMinute(1)
        try await TestServer.with(config, modules: Self.modules) { server in
            #expect(try await server.get("/v3/books/search?q=the").status == 200)
            let limited = try await server.get("/v3/books/search?q=the")
            let body = try Self.expectProblem(limited, status: 429, code: "RATE_LIMIT_EXCEEDED")
            #expect(body["retryable"]?.boolValue == true)
            let ms = try #require(body["retryAfterMs"]?.intValue)
            #expect(ms > 0 && limited.header("Retry-After") == String(ms / 1000))
        }
    }

    @Test func circuitOpenHasRetryAfterMsButNoHeader() async throws {
        var config = TestServer.testConfiguration()
        config.faultInjectionEnabled = true
        config.faultRules = [
            FaultRule(pathPrefix: "/v3/books", action: .circuitOpen(retryAfterMs: 60_000, provider: nil))
        ]
        try await TestServer.with(config, modules: Self.modules) { server in
            let response = try await server.get("/v3/books/9780439023481")
            let body = try Self.expectProblem(response, status: 503, code: "CIRCUIT_OPEN")
            #expect(body["retryAfterMs"]?.intValue == 60_000 && body["retryable"]?.boolValue == true)
            #expect(response.header("Retry-After") == nil)
            // The v1 routes keep their envelope and header.
            let v1 = try await server.get("/v1/search/isbn?isbn=9780439023481")
            #expect(v1.status == 200)
        }
    }
}

extension JSONValue {
    /// The element at `index` of an array (nil otherwise), for reading test bodies.
    subscript(_ index: Int) -> JSONValue? {
        guard let array = arrayValue, array.indices.contains(index) else { return nil }
        return array[index]
    }
}

@Suite struct SHA256DigestTests {
    @Test func knownVectors() {
        #expect(SHA256Digest.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256Digest.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256Digest.hex(long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
