import Testing
@testable import BooksTrackClient

struct RateLimitRouteCase: Sendable, CustomTestStringConvertible {
    let method: String
    let path: String
    let expected: RateLimitClass?
    var testDescription: String { "\(method) \(path)" }
}

@Suite("RateLimitClass routes")
struct RateLimitClassRouteTests {
    @Test(arguments: [
        RateLimitRouteCase(method: "GET", path: "/v1/search/isbn?isbn=9780141439518", expected: .search),
        RateLimitRouteCase(method: "GET", path: "/v1/search/title?q=dune&limit=5", expected: .search),
        RateLimitRouteCase(method: "GET", path: "/v1/search/author?name=Le+Guin", expected: .search),
        RateLimitRouteCase(method: "GET", path: "/v1/search/advanced?author=x", expected: .search),
        RateLimitRouteCase(method: "GET", path: "/V1/Search/ISBN/?isbn=1", expected: .search),
        RateLimitRouteCase(method: "GET", path: "/v1/search/similar?isbn=9780141439518", expected: .similar),
        RateLimitRouteCase(method: "GET", path: "/api/v2/search?q=dune", expected: .search),
        RateLimitRouteCase(method: "GET", path: "/api/v2/search?q=dune&mode=text", expected: .search),
        RateLimitRouteCase(method: "GET", path: "/api/v2/search?q=dune&mode=semantic", expected: .semantic),
        RateLimitRouteCase(method: "GET", path: "/api/v2/search?mode=HYBRID&q=dune", expected: .semantic),
        RateLimitRouteCase(method: "GET", path: "/api/v2/search?q=x&mode=similar", expected: .similar),
        RateLimitRouteCase(method: "GET", path: "/api/v2/search?q=similar%3A9780141439518", expected: .similar),
        RateLimitRouteCase(method: "POST", path: "/api/v2/books/enrich", expected: .enrich),
        RateLimitRouteCase(method: "POST", path: "/api/batch-enrich", expected: .batch),
        RateLimitRouteCase(method: "POST", path: "/v1/enrichment/batch", expected: .batch),
        RateLimitRouteCase(method: "POST", path: "/api/v2/imports", expected: .import),
        RateLimitRouteCase(method: "GET", path: "/api/v2/imports/abc", expected: .jobs),
        RateLimitRouteCase(method: "GET", path: "/api/v2/imports/abc/results", expected: .jobs),
        RateLimitRouteCase(method: "GET", path: "/api/v2/imports/abc/stream", expected: nil),
        RateLimitRouteCase(method: "GET", path: "/v1/jobs/abc/results", expected: .jobs),
        RateLimitRouteCase(method: "DELETE", path: "/v1/jobs/abc", expected: .jobs),
        RateLimitRouteCase(method: "DELETE", path: "/api/v2/jobs/abc/cancel", expected: .jobs),
        RateLimitRouteCase(method: "GET", path: "/api/v2/capabilities", expected: nil),
        RateLimitRouteCase(method: "GET", path: "/api/v2/recommendations/weekly", expected: nil),
        RateLimitRouteCase(method: "GET", path: "", expected: nil),
        RateLimitRouteCase(method: "GET", path: "?", expected: nil),
    ])
    func classOfRoute(_ route: RateLimitRouteCase) {
        #expect(RateLimitClass.forRequest(method: route.method, path: route.path) == route.expected)
    }
}
