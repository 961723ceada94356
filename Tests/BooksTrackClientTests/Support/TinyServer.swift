import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing

/// A counter shared between a tiny server's handlers and the test.
final class HitCounter: Sendable {
    private let state = Mutex<[String: Int]>([:])
    func hit(_ key: String) { state.withLock { $0[key, default: 0] += 1 } }
    func count(_ key: String) -> Int { state.withLock { $0[key] ?? 0 } }
    var total: Int { state.withLock { $0.values.reduce(0, +) } }
}

/// A Hummingbird server on 127.0.0.1 port 0 for cases the real server cannot produce.
struct TinyServer: Sendable {
    let port: Int
    let group: ServiceGroup
    let task: Task<Void, any Error>

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts `router`, runs `body`, always shuts down.
    static func with<T: Sendable>(
        _ build: (Router<BasicRequestContext>) -> Void, server: HTTPServerBuilder = .http1(),
        _ body: (TinyServer) async throws -> T
    ) async throws -> T {
        let router = Router()
        build(router)
        let (portStream, portSink) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "tiny")
        logger.logLevel = .critical
        let app = Application(
            router: router, server: server, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portSink.yield(channel.localAddress?.port ?? 0)
                portSink.finish()
            }, logger: logger)
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
enum Reply {
    static func json(_ text: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func text(_ text: String, status: HTTPResponse.Status, contentType: String = "text/html") -> Response {
        Response(status: status, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func fixture(_ name: String, status: HTTPResponse.Status = .ok) -> Response {
        json(Fixtures.text(name), status: status)
    }
}

/// The recorded production bodies of the contract tests (one copy, shared: Tests/BooksTrackContractTests/Fixtures).
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("BooksTrackContractTests/Fixtures")

    /// The fixture's text; a missing fixture is a recorded test failure, never a silent `{}`.
    static func text(_ name: String) -> String {
        do {
            return try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        } catch {
            Issue.record("missing fixture \(name): \(error)")
            return ""
        }
    }
}
