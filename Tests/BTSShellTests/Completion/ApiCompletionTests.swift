import BTSShell
import BTSTerminal
import BooksTrackClient
import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

/// `api`'s METHOD, PATH, `-H` and `--input` through the completion engine: the routes the client
/// knows for each dialect, or the endpoints a server's capabilities list.
@Suite("Completion engine: api")
struct ApiCompletionTests {
    static func engine(_ routes: [KnownRoute]?) -> CompletionEngine {
        var context = CompletionFixtures.fileContext()
        context.apiRoutes = routes
        return CompletionFixtures.engine(context)
    }

    @Test func theV1DialectOffersItsRoutesAndMethods() {
        let engine = Self.engine(KnownRoute.known(for: .v1))
        let first = engine.answer("api ").candidates
        #expect(first.starts(with: BooksTrackAPI.rawMethods), "\(first)")
        #expect(
            first.contains("/health") && first.contains("/v1/search/title") && first.contains("/v1/jobs/"),
            "\(first)"
        )
        #expect(!first.contains { $0.hasPrefix("/v3/") }, "\(first)")
        #expect(engine.tab("api /v1/search/ti") == "api /v1/search/title ")
        // A route with an id stops at the placeholder, without a space.
        #expect(engine.tab("api /v1/jo") == "api /v1/jobs/")
        #expect(engine.answer("api /api/v2/imports").candidates == ["/api/v2/imports", "/api/v2/imports/"])
        #expect(engine.tab("api po") == "api POST ")
        #expect(engine.tab("api delete /v1/j") == "api delete /v1/jobs/")
        // After a METHOD, only the routes that answer it.
        #expect(engine.answer("api POST /v1/").candidates == ["/v1/enrichment/batch", "/v1/scan/bookshelf"])
        #expect(engine.answer("api DELETE ").candidates == ["/api/v2/jobs/", "/v1/jobs/"])
        #expect(engine.answer("api GET /health ").candidates.isEmpty)
        #expect(engine.answer("api /health /").candidates.isEmpty)
    }

    @Test func theV3DialectOffersItsRoutes() {
        let engine = Self.engine(KnownRoute.known(for: .v3))
        #expect(
            engine.answer("api /v3/jobs/").candidates
                == [
                    "/v3/jobs/enrichment/", "/v3/jobs/imports", "/v3/jobs/imports/", "/v3/jobs/scans",
                    "/v3/jobs/scans/",
                ]
        )
        #expect(
            engine.answer("api DELETE /v3/").candidates == [
                "/v3/jobs/enrichment/", "/v3/jobs/imports/", "/v3/jobs/scans/",
            ]
        )
        #expect(engine.tab("api /v3/books/se") == "api /v3/books/search ")
        #expect(engine.answer("api /v3/books/").candidates == ["/v3/books/", "/v3/books/enrich", "/v3/books/search"])
        #expect(
            engine.answer("api POST /v3/").candidates == ["/v3/books/enrich", "/v3/jobs/imports", "/v3/jobs/scans"]
        )
        #expect(engine.answer("api /v1").candidates.isEmpty)
    }

    @Test func beforeABackendIsOpenEveryDialectsRoutesAreOffered() {
        let paths = Self.engine(nil).answer("api /").candidates
        #expect(paths.contains("/v1/search/isbn") && paths.contains("/v3/books/search"), "\(paths)")
        #expect(paths == paths.sorted() && Set(paths).count == paths.count, "\(paths)")
    }

    @Test func theEndpointsOfTheCapabilitiesAreTakenAtTheirWord() {
        let listed = [
            "GET /api/v2/search?mode=text", "GET /api/v2/search?mode=semantic", "GET /v1/jobs/{jobId}/status",
            "DELETE /v1/jobs/{jobId}", "GET /ws/progress", "not a route", "FETCH /x", "GET //host/x",
        ]
        let routes = listed.compactMap(KnownRoute.init(endpoint:))
        #expect(
            routes.map(\.description) == [
                "GET /api/v2/search", "GET /api/v2/search", "GET /v1/jobs/{jobId}/status",
                "DELETE /v1/jobs/{jobId}", "GET /ws/progress",
            ]
        )
        let engine = Self.engine(routes)
        #expect(engine.answer("api /").candidates == ["/api/v2/search", "/v1/jobs/", "/ws/progress"])
        #expect(engine.answer("api DELETE /").candidates == ["/v1/jobs/"])
        #expect(engine.answer("api POST /").candidates.isEmpty)
    }

    @Test func optionsHeadersAndTheInput() {
        let engine = Self.engine(KnownRoute.known(for: .v1))
        #expect(
            engine.answer("api /health -").candidates == [
                "--field", "-f", "--header", "-H", "--input", "--include", "-i",
            ]
        )
        #expect(engine.tab("api /health -H Acc") == "api /health -H Accept:")
        #expect(engine.tab("api /health -H 'Cont") == "api /health -H 'Content-Type: ")
        #expect(engine.answer("api /health --header ").candidates.contains("If-None-Match:"))
        #expect(engine.answer("api /health -f ").candidates.isEmpty)
        let input = engine.answer("api POST /v1/enrichment/batch --input ").candidates
        #expect(input.first == "-" && input.contains("library.csv"), "\(input)")
        #expect(
            engine.tab("api POST /v1/enrichment/batch --input lib")
                == "api POST /v1/enrichment/batch --input library.csv "
        )
        // Words after --input's value are the REQUEST again.
        #expect(engine.answer("api --input body.json POST /v1/e").candidates == ["/v1/enrichment/batch"])
    }

    /// A live server in production's older dialect (no v3 routes): its capabilities list their
    /// endpoints, and the session's completion offers them, `/ws/progress` among them.
    @Test func aServersListedEndpointsReachTheSessionsCompletion() async throws {
        let modules = LocalServer.defaultModules.filter { !($0 is V3Routes) }
        var configuration = ServerConfiguration(port: 0)
        configuration.dialect = .production
        try await LiveServer.running(configuration, modules: modules) { server in
            try await withShell(backend: BackendRequest(apiURL: server.baseURL.absoluteString)) { harness in
                #expect(await harness.run("api /health") == 0, "\(harness.err)")
                let store = CompletionContextStore()
                await harness.shell.updateCompletionContext(store)
                let routes = store.completionContext.apiRoutes ?? []
                #expect(routes.contains(KnownRoute("GET", "/ws/progress")), "\(routes)")
                let engine = CompletionEngine(context: store)
                #expect(engine.answer("api /w").candidates == ["/ws/progress"])
                #expect(engine.tab("api DELETE /v1/j") == "api DELETE /v1/jobs/")
            }
        }
    }

    /// Every route the client knows is one the stand-in routes (an id in it filled in): none is
    /// answered "no such route", but for the job status route of production's older routers, which
    /// the client asks only when `/api/v2/imports/{jobId}` is not there.
    @Test func everyKnownRouteIsRoutedByTheStandIn() async throws {
        let productionOnly = [KnownRoute("GET", "/v1/jobs/{jobId}/status")]
        #expect(productionOnly.allSatisfy(KnownRoute.v1.contains))
        try await LiveServer.with { _, api in
            for route in KnownRoute.v1 + KnownRoute.v3 where !productionOnly.contains(route) {
                let path = route.path.replacingOccurrences(of: "{jobId}", with: "00000000-0000-4000-8000-000000000000")
                    .replacingOccurrences(of: "{isbn}", with: "9780441172719")
                do throws(BooksTrackError) {
                    _ = try await api.raw(method: route.method ?? "GET", path: path)
                } catch {
                    #expect(error.code != .routeNotOffered && error.httpStatus != 405, "\(route): \(error)")
                }
            }
        }
    }
}

/// The routes with an id in them are stated once, in `KnownRoute`: the client's calls fill them in.
@Suite struct KnownRouteTests {
    @Test func aTemplateIsFilledInOrder() {
        #expect(KnownRoute.jobStatus.path("abc") == "/v1/jobs/abc/status")
        #expect(KnownRoute.importStatus.path("a%2Fb") == "/api/v2/imports/a%2Fb")
        #expect(KnownRoute.importStream.path("j") == ImportAccepted.defaultSSEURL(jobId: "j"))
        #expect(KnownRoute.v3Book.path("9780441172719") == "/v3/books/9780441172719")
        #expect(KnownRoute.v3Job(.batchEnrichment, suffix: "/results").path("x") == "/v3/jobs/enrichment/x/results")
        #expect(KnownRoute("GET", "/a/{x}/b/{y}").path("1") == "/a/1/b/")
        #expect(KnownRoute("GET", "/health").path("unused") == "/health")
    }

    /// No call of the client builds a route path of its own with an id interpolated into it.
    @Test func noClientCallSpellsARouteWithAnIdItself() throws {
        let client = CommandSourceTests.sources.appendingPathComponent("BooksTrackClient")
        let built = try Regex(#""/(v1|v3|api)/[^"]*\\\("#)
        var found: [String] = []
        let enumerator = try #require(FileManager.default.enumerator(at: client, includingPropertiesForKeys: nil))
        for case let url as URL in enumerator
        where url.pathExtension == "swift" && url.lastPathComponent != "KnownRoute.swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains(built) {
                found.append("\(url.lastPathComponent): \(line)")
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
        #expect(#"RequestSpec(.GET, "/v1/jobs/\(id)/status")"#.contains(built))
    }
}
