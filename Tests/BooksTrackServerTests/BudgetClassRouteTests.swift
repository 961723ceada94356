import AsyncHTTPClient
import BooksTrackContract
import BooksTrackServer
import Foundation
import Logging
import NIOHTTP1
import Testing

/// A request and the class docs/contract.md §7 gives it (nil: only `global`).
struct BudgetRouteCase: Sendable, CustomTestStringConvertible {
    let method: String
    let path: String
    let expected: BudgetClass?
    var testDescription: String { "\(method) \(path)" }
}

/// The routes of §7, held once: against the package's one classifier, `BudgetClass.classify`,
/// and against what a live server's rate-limit middleware says (`X-RateLimit-Class`).
@Suite("BudgetClass routes", .timeLimit(.minutes(TestTime.minutes(10))))
struct BudgetClassRouteTests {
    static let routes: [BudgetRouteCase] = [
        BudgetRouteCase(method: "GET", path: "/v1/search/isbn?isbn=9780141439518", expected: .search),
        BudgetRouteCase(method: "GET", path: "/v1/search/title?q=dune&limit=5", expected: .search),
        BudgetRouteCase(method: "GET", path: "/v1/search/author?name=Le+Guin", expected: .search),
        BudgetRouteCase(method: "GET", path: "/v1/search/advanced?author=x", expected: .search),
        BudgetRouteCase(method: "GET", path: "/V1/Search/ISBN/?isbn=1", expected: .search),
        BudgetRouteCase(method: "GET", path: "/v1/search/similar?isbn=9780141439518", expected: .similar),
        BudgetRouteCase(method: "GET", path: "/api/v2/search?q=dune", expected: .search),
        BudgetRouteCase(method: "GET", path: "/api/v2/search?q=dune&mode=text", expected: .search),
        BudgetRouteCase(method: "GET", path: "/api/v2/search?q=dune&mode=semantic", expected: .semantic),
        BudgetRouteCase(method: "GET", path: "/api/v2/search?mode=HYBRID&q=dune", expected: .semantic),
        BudgetRouteCase(method: "GET", path: "/api/v2/search?q=x&mode=similar", expected: .similar),
        BudgetRouteCase(method: "GET", path: "/api/v2/search?q=similar%3A9780141439518", expected: .similar),
        BudgetRouteCase(method: "POST", path: "/api/v2/books/enrich", expected: .enrich),
        BudgetRouteCase(method: "POST", path: "/api/batch-enrich", expected: .batch),
        BudgetRouteCase(method: "POST", path: "/v1/enrichment/batch", expected: .batch),
        BudgetRouteCase(method: "POST", path: "/api/v2/imports", expected: .import),
        BudgetRouteCase(method: "GET", path: "/api/v2/imports/abc", expected: .jobs),
        BudgetRouteCase(method: "GET", path: "/api/v2/imports/abc/results", expected: .jobs),
        BudgetRouteCase(method: "GET", path: "/api/v2/imports/abc/stream", expected: nil),
        BudgetRouteCase(method: "GET", path: "/v1/jobs/abc/results", expected: .jobs),
        BudgetRouteCase(method: "DELETE", path: "/v1/jobs/abc", expected: .jobs),
        BudgetRouteCase(method: "DELETE", path: "/api/v2/jobs/abc/cancel", expected: .jobs),
        // §6 token refresh is a job route: jobs (not in §7's table by name).
        BudgetRouteCase(method: "POST", path: "/api/token/refresh", expected: .jobs),
        BudgetRouteCase(method: "GET", path: "/api/v2/capabilities", expected: nil),
        BudgetRouteCase(method: "GET", path: "/api/v2/recommendations/weekly", expected: nil),
        BudgetRouteCase(method: "GET", path: "/health", expected: nil),
        BudgetRouteCase(method: "GET", path: "", expected: nil),
        BudgetRouteCase(method: "GET", path: "?", expected: nil),
    ]

    @Test(arguments: routes)
    func classOfRoute(_ route: BudgetRouteCase) {
        #expect(BudgetClass.classify(method: route.method, path: route.path) == route.expected)
    }

    /// Methods compare case-insensitively and only POST routes of a class need the POST method;
    /// a path with non-ASCII letters is lowercased by Unicode rules (a Kelvin sign is a "k").
    @Test func methodCaseAndNonASCIIPaths() {
        #expect(BudgetClass.classify(method: "post", path: "/api/v2/books/enrich") == .enrich)
        #expect(BudgetClass.classify(method: "GET", path: "/api/v2/books/enrich") == nil)
        #expect(BudgetClass.classify(method: "GET", path: "/API/V2/SEARCH/?Mode=semantic&mode=semantic") == .semantic)
        #expect(BudgetClass.classify(method: "POST", path: "/api/ba\u{212A}-enrich") == nil)
        #expect(BudgetClass.classify(method: "POST", path: "/api/batch-enrich\u{212A}") == nil)
        #expect(BudgetClass.classify(method: "GET", path: "/v1/jobs/\u{212A}/results") == .jobs)
        #expect(BudgetClass.classify(method: "GET", path: "/v1/search/\u{212A}") == nil)
        #expect(BudgetClass.classify(method: "GET", path: "/v1/search/isbn\u{301}") == nil)
    }

    /// Every route the server serves (paths as the router spells them) is limited in the class
    /// `BudgetClass.classify` names: the innermost limiter's `X-RateLimit-Class`, `global` when
    /// the route has no class (none at all for `/health`). Requests fail validation (no body, unknown job) after the limiter.
    @Test func serverClassesEveryRouteAsTheClassifier() async throws {
        let temp = try TempDir()
        defer { temp.cleanup() }
        let checked = try await LiveServer.running(
            catalog: JobsFakeCatalog.standard,
            modules: [CoreRoutes(), JobRoutes(dataDirectory: temp.url)],
            logLevel: .warning
        ) { server in
            var checked = 0
            // The router's paths are lowercase; "" and "?" are not requests.
            for route in Self.routes where route.path.hasPrefix("/") && !route.path.hasPrefix("/V") {
                let expected = BudgetClass.classify(method: route.method, path: route.path)
                let response = try await httpRequest(HTTPMethod(rawValue: route.method), server.base + route.path)
                #expect(response.status != 429, "\(route.method) \(route.path)")
                // `/health` is exempt from every limit, `global` included.
                let header = route.path == "/health" ? nil : (expected ?? .global).rawValue
                #expect(
                    response.header("X-RateLimit-Class") == header,
                    "\(route.method) \(route.path) → \(response.status)"
                )
                checked += 1
            }
            return checked
        }
        #expect(checked == Self.routes.count - 3)
    }
}
