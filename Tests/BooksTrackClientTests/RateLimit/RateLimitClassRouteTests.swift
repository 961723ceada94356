import Testing
@testable import BooksTrackClient

struct RouteCase: Sendable, CustomTestStringConvertible {
    let method: String
    let path: String
    let expected: RateLimitClass?
    var testDescription: String { "\(method) \(path)" }
}

@Suite("RateLimitClass routes")
struct RateLimitClassRouteTests {
    @Test(arguments: [
        RouteCase(method: "GET", path: "/v1/search/isbn?isbn=9780141439518", expected: .search),
        RouteCase(method: "GET", path: "/v1/search/title?q=dune&limit=5", expected: .search),
        RouteCase(method: "GET", path: "/v1/search/author?name=Le+Guin", expected: .search),
        RouteCase(method: "GET", path: "/v1/search/advanced?author=x", expected: .search),
        RouteCase(method: "GET", path: "/V1/Search/ISBN/?isbn=1", expected: .search),
        RouteCase(method: "GET", path: "/v1/search/similar?isbn=9780141439518", expected: .similar),
        RouteCase(method: "GET", path: "/api/v2/search?q=dune", expected: .search),
        RouteCase(method: "GET", path: "/api/v2/search?q=dune&mode=text", expected: .search),
        RouteCase(method: "GET", path: "/api/v2/search?q=dune&mode=semantic", expected: .semantic),
        RouteCase(method: "GET", path: "/api/v2/search?mode=HYBRID&q=dune", expected: .semantic),
        RouteCase(method: "GET", path: "/api/v2/search?q=x&mode=similar", expected: .similar),
        RouteCase(method: "GET", path: "/api/v2/search?q=similar%3A9780141439518", expected: .similar),
        RouteCase(method: "POST", path: "/api/v2/books/enrich", expected: .enrich),
        RouteCase(method: "POST", path: "/api/batch-enrich", expected: .batch),
        RouteCase(method: "POST", path: "/v1/enrichment/batch", expected: .batch),
        RouteCase(method: "POST", path: "/api/v2/imports", expected: .import),
        RouteCase(method: "GET", path: "/api/v2/imports/abc", expected: .jobs),
        RouteCase(method: "GET", path: "/api/v2/imports/abc/results", expected: .jobs),
        RouteCase(method: "GET", path: "/api/v2/imports/abc/stream", expected: nil),
        RouteCase(method: "GET", path: "/v1/jobs/abc/results", expected: .jobs),
        RouteCase(method: "DELETE", path: "/v1/jobs/abc", expected: .jobs),
        RouteCase(method: "DELETE", path: "/api/v2/jobs/abc/cancel", expected: .jobs),
        RouteCase(method: "GET", path: "/api/v2/capabilities", expected: nil),
        RouteCase(method: "GET", path: "/api/v2/recommendations/weekly", expected: nil),
        RouteCase(method: "GET", path: "", expected: nil),
        RouteCase(method: "GET", path: "?", expected: nil),
    ])
    func classOfRoute(_ route: RouteCase) {
        #expect(RateLimitClass.forRequest(method: route.method, path: route.path) == route.expected)
    }
}
