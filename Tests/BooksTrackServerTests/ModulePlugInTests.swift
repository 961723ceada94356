import BooksTrackContract
import Foundation
import Hummingbird
import Logging
import Synchronization
import Testing

@testable import BooksTrackServer

/// A stand-in for the job routes: a classed route with a path parameter plus a shutdown hook.
struct ProbeModule: ServerRouteModule {
    let shutdowns: ShutdownCounter

    func install(on router: Router<ServerRequestContext>, services: ServerServices) throws -> ServerModuleInstallation {
        router.add(
            middleware: services.rateLimit(classifier: { request in
                request.uri.path.hasPrefix("/v1/jobs/") ? .jobs : nil
            })
        )
        router.get("/v1/jobs/:id/results") { _, context in
            guard let id = context.parameters.get("id") else { throw APIError(.invalidRequest, "no id") }
            return try JSONResponse.envelope(["jobId": id])
        }
        router.delete("/v1/jobs/:id") { _, _ -> Response in
            throw APIError(.unauthorized, "missing Bearer token")
        }
        return ServerModuleInstallation(onShutdown: { shutdowns.increment() })
    }
}

final class ShutdownCounter: Sendable {
    private let value = Mutex(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

@Suite struct ModulePlugInTests {
    @Test func extraModuleRoutesGetClassesEnvelopesAndShutdown() async throws {
        let counter = ShutdownCounter()
        var config = ServerConfiguration(port: 0)
        config.rateLimits[.jobs] = .perMinute(3)
        let running = try await TestServer.with(config, modules: [CoreRoutes(), ProbeModule(shutdowns: counter)]) {
            server in
            let ok = try await server.get("/v1/jobs/abc/results")
            #expect(
                ok.status == 200 && ok.header("X-RateLimit-Class") == "jobs" && ok.header("X-RateLimit-Limit") == "3"
            )
            #expect(try ok.decode(Envelope<[String: String]>.self).data == ["jobId": "abc"])
            let wrongMethod = try await server.request("POST", "/v1/jobs/xyz")
            #expect(wrongMethod.status == 405 && wrongMethod.header("Allow") == "DELETE")
            let unauthorized = try await server.request("DELETE", "/v1/jobs/abc")
            #expect(unauthorized.status == 401 && unauthorized.errorCode == "UNAUTHORIZED")
            #expect(unauthorized.header("X-RateLimit-Remaining") == "0")
            let limited = try await server.get("/v1/jobs/abc/results")
            #expect(limited.status == 429)
            // Core routes are unaffected by the module's classifier; /health is never rate-limited.
            #expect(try await server.get("/v1/search/title?q=dune").header("X-RateLimit-Class") != "jobs")
            #expect(try await server.get("/health").header("X-RateLimit-Class") == nil)
            return server.running
        }
        // Shut down once by `with`; a second shutdown is harmless and runs the module's hook no more.
        await running.shutdown()
        #expect(counter.count == 1)
    }

    @Test func portInUseIsAClearStartError() async throws {
        try await TestServer.with { server async throws in
            var config = ServerConfiguration(port: server.running.port)
            config.host = "127.0.0.1"
            await #expect(throws: LocalServerError.self) {
                let second = try await LocalServer.start(config, catalog: FakeCatalog(), logger: Logger(label: "dup"))
                await second.shutdown()
            }
        }
    }
}
