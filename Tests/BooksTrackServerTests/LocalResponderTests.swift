import BooksTrackContract
import Foundation
import HTTPTypes
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing

@testable import BooksTrackServer

#if canImport(Glibc)
import Glibc
import NIOFoundationCompat
import NIOHTTP1
#endif

/// The router answering in-process (the embedded backend's path) gives what the socket gives: the
/// same status, body (metadata aside: its timestamp and timing differ) and headers, errors included.
@Suite struct LocalResponderTests {
    static let targets = [
        "/v1/search/isbn?isbn=9780441172719", "/v1/search/title?q=dune&limit=3",
        "/v1/search/author?name=herbert", "/api/v2/search?q=desert%20planet&mode=semantic&limit=4",
        "/v1/search/isbn?isbn=12345", "/v1/search/title", "/no/such/route", "/api/v2/capabilities", "/health",
    ]

    /// The body with `metadata` removed (when it is a JSON object).
    static func comparable(_ body: Data) -> String {
        guard var object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            return String(decoding: body, as: UTF8.self)
        }
        object["metadata"] = nil
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? body
        return String(decoding: data, as: UTF8.self)
    }

    @Test func answersAsTheSocketDoes() async throws {
        try await TestServer.with { server in
            for target in Self.targets {
                let overSocket = try await server.get(target)
                let local = try await server.running.responder.respond(
                    method: .get,
                    target: target,
                    headers: [:],
                    body: nil,
                    bodyLimit: 1 << 20
                )
                #expect(local.status == overSocket.status, "\(target)")
                #expect(Self.comparable(Data(buffer: local.body)) == Self.comparable(overSocket.body), "\(target)")
                // (X-Cache aside: the second asker of a cached route gets HIT.)
                for name in ["Content-Type", "Cache-Control", "X-Response-Format", "X-Error-Type"] {
                    let field = try #require(HTTPField.Name(name))
                    #expect(local.headers[field] == overSocket.header(name), "\(target) \(name)")
                }
            }
        }
    }

    @Test func aBodyOverTheLimitIsRefused() async throws {
        _ = try await TestServer.with { server in
            await #expect(throws: LocalResponderBodyTooLarge.self) {
                _ = try await server.running.responder.respond(
                    method: .get,
                    target: "/v1/search/title?q=dune&limit=20",
                    headers: [:],
                    body: nil,
                    bodyLimit: 64
                )
            }
        }
    }

    /// An on-demand server (the embedded backend's): its port is held from the start — nobody else can
    /// bind it and nothing listens — while the responder answers; `listen()` opens the socket at that
    /// very port (a second call changes nothing), and shutdown lets the port go.
    @Test func anOnDemandServerListensOnlyWhenAsked() async throws {
        let server = try await LocalServer.start(
            TestServer.testConfiguration(),
            catalog: FakeCatalog(),
            logger: Logger(label: "test"),
            modules: TestServer.allFeatureModules,
            listening: .onDemand
        )
        let port = server.port
        #expect(port > 0)
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(port)")
        #expect(!Self.connects(to: port), "nothing should listen before listen()")
        #expect(!Self.binds(port), "the reserved port was free for others")
        let local = try await server.responder.respond(
            method: .get,
            target: "/health",
            headers: [:],
            body: nil,
            bodyLimit: 1 << 20
        )
        #expect(local.status == 200)

        try await server.listen()
        try await server.listen()
        #expect(Self.connects(to: port))
        let overSocket = try await httpRequest(.GET, server.baseURL.absoluteString + "/health")
        #expect(overSocket.status == 200)

        await server.shutdown()
        #expect(!Self.connects(to: port))
        await #expect(throws: (any Error).self) { try await server.listen() }
    }

    /// A server that never listened lets its reserved port go at shutdown.
    @Test func anUnusedOnDemandServerReleasesItsPort() async throws {
        let server = try await LocalServer.start(
            TestServer.testConfiguration(),
            catalog: FakeCatalog(),
            logger: Logger(label: "test"),
            modules: TestServer.allFeatureModules,
            listening: .onDemand
        )
        #expect(!Self.binds(server.port))
        #expect(await server.holdsReservedPort)
        await server.shutdown()
        #expect(await !server.holdsReservedPort)
        // Free now, unless a server of a test running alongside has just been given it (port 0):
        // then it is not ours, and no socket of this server is left on it.
        if !Self.binds(server.port) {
            print("port \(server.port) was taken by another socket after the shutdown released it")
        }
    }

    /// The application (and NIO's threads with it) is made at the first `listen()`, once, and
    /// never by a server that only answers in-process.
    @Test func theApplicationIsMadeWhenTheSocketIsFirstWanted() async throws {
        let made = Mutex(0)
        let makeGroup: @Sendable () -> ServiceGroup = {
            made.withLock { $0 += 1 }
            // No services: the group ends at once, so `listen()` fails ("stopped before it was listening").
            return ServiceGroup(services: [], logger: Logger(label: "test"))
        }
        let unused = ServerListener(started: StartSignal(), reservation: nil, makeGroup: makeGroup)
        await unused.stop()
        #expect(made.withLock { $0 } == 0)

        let listener = ServerListener(started: StartSignal(), reservation: nil, makeGroup: makeGroup)
        await #expect(throws: (any Error).self) { _ = try await listener.listen() }
        await #expect(throws: (any Error).self) { _ = try await listener.listen() }
        #expect(made.withLock { $0 } == 1)
        await listener.stop()
    }

    /// Whether a TCP connect to 127.0.0.1:`port` succeeds (refused at once when nothing listens).
    static func connects(to port: Int) -> Bool {
        withSocket { fd in
            var address = loopback(port)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        }
    }

    /// Whether a plain socket (no `SO_REUSEADDR`) can bind 127.0.0.1:`port`.
    static func binds(_ port: Int) -> Bool {
        withSocket { fd in
            var address = loopback(port)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        }
    }

    static func withSocket(_ body: (Int32) -> Bool) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return body(fd)
    }

    static func loopback(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        return address
    }
}
