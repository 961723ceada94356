import BooksTrackCatalog
import BooksTrackContract
import BooksTrackEmbedding
import BooksTrackServer
import Foundation
import Testing

/// A server whose catalog cannot run the sentence model (its files are missing): the capabilities
/// stop advertising semantic search and say why, and the semantic and hybrid modes answer 503
/// FEATURE_NOT_AVAILABLE naming the setup command; nothing falls back to title words.
@Suite struct SemanticModelMissingTests {
    static let missing = SemanticUnavailable.model(.notInstalled(directory: "/nowhere/all-MiniLM-L6-v2"))

    @Test func capabilitiesStopAdvertisingSemanticAndSayWhy() async throws {
        var catalog = FakeCatalog()
        catalog.semanticUnavailable = Self.missing
        try await TestServer.with(catalog: catalog, modules: TestServer.allFeatureModules + [V3Routes()]) {
            server async throws in
            let caps = try await server.get("/api/v2/capabilities").decode(Capabilities.self)
            #expect(caps.isEnabled(.semanticSearch) == false)
            #expect(caps.isEnabled(.similarBooks) == true)
            #expect(caps.unavailableReason(.semanticSearch) == Self.missing.description)
            let v3 = try await server.get("/v3/capabilities")
            #expect(try v3.decode(JSONValue.self)["features"]?["semantic_search"]?.boolValue == false)
        }
    }

    @Test(arguments: ["semantic", "hybrid"])
    func semanticRouteAnswers503NamingTheSetup(_ mode: String) async throws {
        var catalog = FakeCatalog()
        catalog.semanticUnavailable = Self.missing
        try await TestServer.with(catalog: catalog) { server async throws in
            let response = try await server.get("/api/v2/search?q=a%20boy%20wizard&mode=\(mode)")
            #expect(response.status == 503)
            #expect(response.errorCode == "FEATURE_NOT_AVAILABLE")
            let message = try #require(try response.failure.error?.message)
            #expect(message == Self.missing.description && message.contains("scripts/setup"))
            // Text search is untouched.
            #expect(try await server.get("/api/v2/search?q=hunger&mode=text").status == 200)
        }
    }

    /// With the model, the capabilities list semantic search and give no reason.
    @Test func withTheModelSemanticIsAdvertised() async throws {
        try await TestServer.with(catalog: FakeCatalog()) { server async throws in
            let caps = try await server.get("/api/v2/capabilities").decode(Capabilities.self)
            #expect(caps.isEnabled(.semanticSearch) == true && caps.unavailableReasons.isEmpty)
        }
    }
}
