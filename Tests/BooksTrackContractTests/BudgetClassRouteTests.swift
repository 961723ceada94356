import BooksTrackContract
import Testing

/// The cases of the client's former route classifier (RateLimitClass.forRequest, removed: it was
/// used only by its test), now held against the package's one classifier.
struct BudgetRouteCase: Sendable, CustomTestStringConvertible {
    let method: String
    let path: String
    let expected: BudgetClass?
    var testDescription: String { "\(method) \(path)" }
}

@Suite("BudgetClass routes")
struct BudgetClassRouteTests {
    @Test(arguments: [
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
        BudgetRouteCase(method: "GET", path: "/api/v2/capabilities", expected: nil),
        BudgetRouteCase(method: "GET", path: "/api/v2/recommendations/weekly", expected: nil),
        BudgetRouteCase(method: "GET", path: "", expected: nil),
        BudgetRouteCase(method: "GET", path: "?", expected: nil),
    ])
    func classOfRoute(_ route: BudgetRouteCase) {
        #expect(BudgetClass.classify(method: route.method, path: route.path) == route.expected)
    }
}
