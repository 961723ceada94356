import BooksTrackClient
import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

/// On a server that speaks only v3 (`bts serve --no-legacy-routes`), `semantic_search` and
/// `similar_books` are false because API v3 has no route for them: the reason says so. It said "the
/// server has 'semantic_search' switched off", which sent a reader looking for a flag. Over v1/v2 a
/// feature that is off is still "switched off".
@Suite struct V3MissingFeatureTests {
    @Test func aV3OnlyServerSaysV3HasNoSuchRoute() async throws {
        var configuration = ServerConfiguration(port: 0)
        configuration.servesLegacyRoutes = false
        try await LiveServer.with(configuration) { _, api in
            _ = await api.connect()
            #expect(await api.dialect == .v3)
            #expect(
                await api.availability(of: .semanticSearch)
                    == .unavailable(
                        reason: "API v3 has no semantic search route, and this server offers it on no other"
                    )
            )
            #expect(
                await api.availability(of: .similarBooks)
                    == .unavailable(reason: "API v3 has no similar-books route, and this server offers it on no other")
            )
            #expect(await api.availability(of: .csvImport) == .available)
        }
    }

    @Test func overV1AFeatureThatIsOffIsSwitchedOff() throws {
        let body =
            #"{"features":{"semantic_search":false},"limits":{"semantic_search_rpm":5,"text_search_rpm":100,"csv_max_rows":10000,"max_batch_size":100},"version":"t"}"#
        let capabilities = try JSONDecoder().decode(Capabilities.self, from: Data(body.utf8))
        #expect(
            FeatureAvailability.availability(of: .semanticSearch, capabilities: capabilities, dialect: .v1)
                == .unavailable(reason: "the server has 'semantic_search' switched off")
        )
        #expect(
            FeatureAvailability.availability(of: .semanticSearch, capabilities: capabilities, dialect: .v3)
                == .unavailable(reason: "API v3 has no semantic search route, and this server offers it on no other")
        )
    }
}
