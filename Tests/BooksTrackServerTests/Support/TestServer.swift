import AsyncHTTPClient
import BooksTrackCatalog
import BooksTrackContract
import BooksTrackServer
import Foundation
import Hummingbird
import Logging
import NIOHTTP1

/// A response read fully over real HTTP.
struct TestResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: Data

    /// The first value of header `name` (case-insensitive).
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
    var text: String { String(decoding: body, as: UTF8.self) }

    func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONCoding.decoder().decode(T.self, from: body)
    }

    /// The failure envelope (`data: null`, `error` present).
    var failure: FailureEnvelope {
        get throws { try decode(FailureEnvelope.self) }
    }

    /// The error code of a failure envelope, or nil.
    var errorCode: String? { (try? failure)?.error?.code.rawValue }
}

/// A server on port 0 plus request helpers; `TestServer.with` shuts it down.
struct TestServer: Sendable {
    let running: RunningServer

    /// The core routes plus a stand-in that claims the job features, so capability answers do not
    /// depend on whether the job routes are installed.
    static var allFeatureModules: [any ServerRouteModule] {
        [
            CoreRoutes(),
            FeatureClaim(features: [.csvImport, .batchEnrichment, .sseProgress, .jobCancellation, .bookshelfScan]),
        ]
    }

    static func testConfiguration() -> ServerConfiguration {
        ServerConfiguration(port: 0)
    }

    /// Starts a server, runs `body`, and always shuts the server down.
    static func with<T: Sendable>(
        _ configuration: ServerConfiguration = TestServer.testConfiguration(),
        catalog: any CatalogQuerying = FakeCatalog(),
        clock: ManualClock? = nil,
        modules: [any ServerRouteModule] = TestServer.allFeatureModules,
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        var now: @Sendable () -> Date = { Date() }
        if let clock { now = clock.closure }
        return try await LiveServer.running(
            configuration,
            catalog: catalog,
            modules: modules,
            logLevel: .error,
            now: now
        ) { running in
            try await body(TestServer(running: running))
        }
    }

    func request(
        _ method: String,
        _ path: String,
        headers: [(String, String)] = [],
        body: Data? = nil
    ) async throws -> TestResponse {
        let result = try await httpRequest(
            HTTPMethod(rawValue: method),
            running.baseURL.absoluteString + path,
            headers: headers,
            body: body.map(Array.init)
        )
        return TestResponse(
            status: result.status,
            headers: result.headers.map { (name: $0.0, value: $0.1) },
            body: result.body
        )
    }

    func get(_ path: String, headers: [(String, String)] = []) async throws -> TestResponse {
        try await request("GET", path, headers: headers)
    }

    func postJSON(_ path: String, _ json: String, headers: [(String, String)] = []) async throws -> TestResponse {
        try await request(
            "POST",
            path,
            headers: [("Content-Type", "application/json")] + headers,
            body: Data(json.utf8)
        )
    }
}

/// A module without routes that only claims features.
struct FeatureClaim: ServerRouteModule {
    var features: Set<ServerFeature>
    func install(on router: Router<ServerRequestContext>, services: ServerServices) throws -> ServerModuleInstallation {
        ServerModuleInstallation(providedFeatures: features)
    }
}
