import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

/// `--no-legacy-routes`: only /v3 (and /health, token refresh, WebSocket) answer, as production 3.x.
@Suite("no legacy routes", .timeLimit(.minutes(TestTime.minutes(10))))
struct LegacyRoutesGoneTests {
    @Test func flagParses() throws {
        #expect(try ServerConfiguration(arguments: ["--no-legacy-routes"]).servesLegacyRoutes == false)
        #expect(try ServerConfiguration(arguments: []).servesLegacyRoutes == true)
        #expect(ServerConfiguration.flagHelp.contains("--no-legacy-routes"))
    }

    @Test(arguments: [ServerDialect.contract, .production])
    func legacyRoutesAreGone(_ dialect: ServerDialect) async throws {
        var config = TestServer.testConfiguration()
        config.servesLegacyRoutes = false
        config.dialect = dialect
        try await TestServer.with(config, modules: LocalServer.defaultModules) { server in
            for (method, path) in [
                ("GET", "/v1/search/isbn?isbn=9780439023481"), ("GET", "/api/v2/capabilities"),
                ("POST", "/api/v2/imports"), ("DELETE", "/v1/jobs/abc"), ("POST", "/api/batch-enrich"),
            ] {
                let response = try await server.request(method, path)
                #expect(response.status == 404)
                let body = try response.decode(JSONValue.self)
                let bare = String(path.split(separator: "?")[0])
                #expect(body["error"]?["message"]?.stringValue == "Endpoint not found: \(method) \(bare)")
                #expect(body["error"]?["code"]?.stringValue == "NOT_FOUND")
                #expect(body["success"]?.boolValue == false)
            }
            #expect(try await server.get("/health").status == 200)
            #expect(try await server.get("/v3/books/9780439023481").status == 200)
            let caps = try await server.get("/v3/capabilities")
            #expect(caps.status == 200)
            // Semantic and similar search live only at v1/v2 routes: with those gone, the contract
            // dialect says so; production claims them all the same (discovery.ts @ e40ae5d).
            let features = try caps.decode(JSONValue.self)["features"]
            #expect(features?["semantic_search"]?.boolValue == (dialect == .production))
            #expect(features?["similar_books"]?.boolValue == (dialect == .production))
        }
    }
}
