import BooksTrackCatalog
import BooksTrackContract
import BooksTrackSupport
import Foundation
import HTTPTypes
import Testing

@testable import BooksTrackServer

@Suite struct ErrorHandlingTests {
    @Test func unknownRouteIsANotFoundEnvelope() async throws {
        try await TestServer.with { server async throws in
            for path in ["/nope", "/v1/search", "/v1/search/isbn/extra", "/api/v3/search?q=x"] {
                let response = try await server.get(path)
                #expect(response.status == 404, "\(path)")
                #expect(response.header("X-Error-Type") == "NOT_FOUND")
                #expect(response.header("X-Response-Format") == "v2.0")
                let failure = try response.failure
                #expect(!failure.success && failure.data == nil && failure.error?.retryable == false)
                #expect(failure.metadata.date != nil)
            }
        }
    }

    @Test func wrongMethodIs405WithAllow() async throws {
        try await TestServer.with { server async throws in
            let get = try await server.get("/api/v2/books/enrich")
            #expect(get.status == 405 && get.errorCode == "INVALID_REQUEST")
            #expect(get.header("Allow") == "POST")
            let post = try await server.postJSON("/v1/search/title?q=x", "{}")
            #expect(post.status == 405 && post.header("Allow") == "GET")
            let delete = try await server.request("DELETE", "/api/v2/capabilities")
            #expect(delete.status == 405 && delete.errorCode == "INVALID_REQUEST")
        }
    }

    @Test func everyHeaderNameIsValid() {
        let names: [HTTPField.Name] = [
            .xErrorType, .xResponseTime, .xResponseFormat, .xRateLimitLimit, .xRateLimitRemaining, .xRateLimitReset,
            .xRateLimitClass, .xCache, .xFaultInjection, .xCustomError, .xIdempotentReplay, .deprecation, .sunset,
            .link,
        ]
        #expect(Set(names.map(\.canonicalName)).count == names.count)
    }

    @Test func catalogFailureIsAnInternalErrorEnvelope() async throws {
        try await TestServer.with(catalog: FailingCatalog()) { server async throws in
            let response = try await server.get("/v1/search/title?q=x")
            #expect(response.status == 500 && response.errorCode == "INTERNAL_ERROR")
            #expect(try response.failure.error?.message == "Internal server error")
            #expect(try await server.get("/health").status == 200)
        }
    }

    @Test func fuzzedQueriesNeverCrashOrLeak500s() async throws {
        var generator = SplitMix64(seed: 2026)
        let alphabet = Array("abcXYZ0123456789-_ %&=?:/#+é漢'\"<>;")
        let routes = [
            "/v1/search/isbn?isbn=", "/v1/search/title?q=", "/v1/search/author?name=", "/v1/search/advanced?title=",
            "/v1/search/similar?isbn=", "/api/v2/search?mode=", "/api/v2/search?q=", "/api/v2/search?q=x&limit=",
            "/api/v2/recommendations/weekly?limit=",
        ]
        var config = TestServer.testConfiguration()
        config.rateLimitsEnabled = false
        try await TestServer.with(config) { server async throws in
            for _ in 0..<150 {
                let route = routes[Int(generator.next() % UInt64(routes.count))]
                let length = Int(generator.next() % 40)
                let raw = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
                let value = raw.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                let response = try await server.get(route + value)
                #expect([200, 400, 404].contains(response.status), "\(route)\(value) → \(response.status)")
                let object = try response.decode([String: JSONValue].self)
                if response.status != 200 {
                    #expect(object["success"] == .bool(false) && object["data"] == .null)
                    #expect(response.header("X-Error-Type") != nil)
                }
            }
        }
    }

    @Test func concurrentRequests() async throws {
        var config = TestServer.testConfiguration()
        config.rateLimitsEnabled = false
        try await TestServer.with(config) { server async throws in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for i in 0..<60 {
                    group.addTask {
                        switch i % 4 {
                        case 0: return try await server.get("/v1/search/isbn?isbn=9780439023481").status
                        case 1: return try await server.get("/api/v2/search?q=the&mode=hybrid").status
                        case 2:
                            return try await server.postJSON(
                                "/api/v2/books/enrich",
                                #"{"barcode":"9780743273565","idempotency_key":"same"}"#
                            ).status
                        default: return try await server.get("/v1/search/title").status
                        }
                    }
                }
                var all: [Int] = []
                for try await status in group { all.append(status) }
                return all
            }
            #expect(statuses.count == 60)
            #expect(statuses.filter { $0 == 200 }.count == 45)
            #expect(statuses.filter { $0 == 400 }.count == 15)
        }
    }
}

/// A catalog whose every query fails, to check that failures become envelopes.
struct FailingCatalog: CatalogQuerying {
    struct Broken: Error {}
    var count: Int { 0 }
    func book(isbn13: String) throws -> CatalogBook? { throw Broken() }
    func book(id: Int) throws -> CatalogBook? { throw Broken() }
    func searchTitle(_ query: String, limit: Int) throws -> CatalogPage { throw Broken() }
    func searchAuthor(_ name: String, limit: Int) throws -> CatalogPage { throw Broken() }
    func searchAdvanced(title: String?, author: String?, limit: Int) throws -> CatalogPage { throw Broken() }
    func semantic(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook] { throw Broken() }
    func hybrid(_ query: String, limit: Int, offset: Int) throws -> [ScoredBook] { throw Broken() }
    func similar(isbn13: String, limit: Int) throws -> [ScoredBook]? { throw Broken() }
    func weeklyRecommendations(weekOf: Date, limit: Int) throws -> [Recommendation] { throw Broken() }
}
