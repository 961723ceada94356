import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import TestSupport

/// A counter shared between a tiny server's handlers and the test.
package final class HitCounter: Sendable {
    private let state = Mutex<[String: Int]>([:])
    package init() {}
    package func hit(_ key: String) { state.withLock { $0[key, default: 0] += 1 } }
    package func count(_ key: String) -> Int { state.withLock { $0[key] ?? 0 } }
    package var total: Int { state.withLock { $0.values.reduce(0, +) } }
}

/// A Hummingbird server on 127.0.0.1 port 0 for cases the real server cannot produce.
package struct TinyServer: Sendable {
    package let port: Int
    package let group: ServiceGroup
    package let task: Task<Void, any Error>

    package var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts `router`, runs `body`, always shuts down.
    package static func with<T: Sendable>(
        _ build: (Router<BasicRequestContext>) -> Void,
        server: HTTPServerBuilder = .http1(),
        _ body: (TinyServer) async throws -> T
    ) async throws -> T {
        let router = Router()
        build(router)
        var logger = Logger(label: "tiny")
        logger.logLevel = .critical
        return try await running(
            { onServerRunning in
                Application(
                    router: router,
                    server: server,
                    configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: onServerRunning,
                    logger: logger
                )
            },
            body
        )
    }

    /// Runs the application `make` builds (handing it the callback that reports its port), runs
    /// `body`, always shuts down. No signal handling (HummingbirdTesting's `app.test` stops its
    /// server on SIGINT): a test that sends SIGINT to the test process stops nobody else's server.
    package static func running<T: Sendable, App: ApplicationProtocol>(
        _ make: (@escaping @Sendable (any Channel) async -> Void) -> App,
        _ body: (TinyServer) async throws -> T
    ) async throws -> T {
        let (portStream, portSink) = AsyncStream<Int>.makeStream()
        let app = make { channel in
            portSink.yield(channel.localAddress?.port ?? 0)
            portSink.finish()
        }
        var logger = Logger(label: "tiny")
        logger.logLevel = .critical
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task { try await group.run() }
        var port = 0
        for await p in portStream {
            port = p
            break
        }
        let server = TinyServer(port: port, group: group, task: task)
        // Graceful shutdown, never task cancellation: cancelling a NIO async server can drop an
        // accepted-but-unserved connection and trap with "Deinited NIOAsyncWriter without calling
        // finish()" (swift-nio #2637, #3481).
        do {
            let result = try await body(server)
            await group.triggerGracefulShutdown()
            _ = await task.result
            return result
        } catch {
            await group.triggerGracefulShutdown()
            _ = await task.result
            throw error
        }
    }
}

/// Responses for tiny servers.
package enum Reply {
    package static func json(_ text: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    package static func text(_ text: String, status: HTTPResponse.Status, contentType: String = "text/html") -> Response
    {
        Response(
            status: status,
            headers: [.contentType: contentType],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }

    package static func fixture(_ name: String, status: HTTPResponse.Status = .ok) -> Response {
        json(Fixtures.text(name), status: status)
    }
}

extension TinyServer {
    /// A server that answers every GET with `{}` and counts it in `hits`: where a test shows that
    /// no request reaches a server.
    package static func counting<T: Sendable>(
        _ hits: HitCounter,
        _ body: (TinyServer) async throws -> T
    ) async throws -> T {
        try await with(
            { router in
                router.get("**") { _, _ in
                    hits.hit("any")
                    return "{}"
                }
            },
            body
        )
    }
}
