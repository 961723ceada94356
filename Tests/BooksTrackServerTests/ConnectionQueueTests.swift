import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

@testable import BooksTrackServer

#if canImport(Glibc)
import Glibc
#endif

/// A crowd of clients past `maxConnections`, and the connection ends that are not errors, over raw
/// sockets against a live server with the jobs' WebSocket-upgrade pipeline (as `bts serve` runs):
/// every client waiting in the listen queue is served once a connection closes, even when the
/// served ones keep their sockets open after their answer; nothing is answered 408 that arrived
/// whole; a client closing, resetting or going quiet logs nothing at error level, a route's real
/// failure still does.
@Suite("Connections past the limit", .serialized)
struct ConnectionQueueTests {
    /// Starts a server with the default modules on `FakeCatalog`, logging to `capture`, runs `body`
    /// and always shuts the server down gracefully (every connection's handling has ended then).
    func withServer(
        capture: LogCapture = LogCapture(),
        modules: [any ServerRouteModule] = LocalServer.defaultModules,
        _ tweak: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (RunningServer) async throws -> Void
    ) async throws {
        let temp = try TempDir("crowd")
        defer { temp.cleanup() }
        var config = ServerConfiguration(port: 0)
        config.jobsDirectory = temp.url
        config.rateLimitsEnabled = false
        tweak(&config)
        var logger = Logger(label: "bts.server.tests") { _ in CapturingLogHandler(capture: capture) }
        logger.logLevel = .trace
        let server = try await LocalServer.start(config, catalog: FakeCatalog(), logger: logger, modules: modules)
        do {
            try await body(server)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    static let health = "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"

    /// The served clients keep their sockets after their answer until every client has one (as a
    /// load tester that reports at the end does): the server must close each connection it answered
    /// with `Connection: close` itself, or the waiting clients get nothing until the idle timeout.
    @Test func everyClientWaitingForAConnectionIsServed() async throws {
        try await withServer({ $0.maxConnections = 8 }) { server in
            let port = server.port
            let replies = await offThePool {
                Crowd.ask(port: port, clients: 100, request: Self.health, within: .seconds(30).scaled)
            }
            let statuses = replies.map { String($0.prefix(12)) }
            #expect(
                statuses.allSatisfy { $0 == "HTTP/1.1 200" },
                "\(Dictionary(statuses.map { ($0, 1) }, uniquingKeysWith: +))"
            )
            #expect(!replies.contains { $0.hasPrefix("HTTP/1.1 408") }, "a whole request was answered 408")
            #expect(
                server.services.connections.peak <= 8,
                "served \(server.services.connections.peak) connections at once"
            )
        }
    }

    /// Past `maxConnections` nobody is served at once: the limit holds while the crowd is served.
    @Test func theLimitHoldsUnderACrowd() async throws {
        try await withServer({ $0.maxConnections = 3 }) { server in
            let port = server.port
            let replies = await offThePool {
                Crowd.ask(port: port, clients: 40, request: Self.health, within: .seconds(30).scaled)
            }
            #expect(replies.filter { $0.hasPrefix("HTTP/1.1 200") }.count == 40)
            #expect(
                server.services.connections.peak <= 3,
                "served \(server.services.connections.peak) connections at once"
            )
        }
    }

    /// Clients that close, reset or go quiet at every stage of a request: the server logs their ends
    /// at debug level (the WebSocket-upgrade pipeline logged each end before a request as an error,
    /// and a body cut short by the client as an "unhandled error").
    @Test func ordinaryConnectionEndsLogNothingAtErrorLevel() async throws {
        let capture = LogCapture()
        try await withServer(
            capture: capture,
            {
                $0.requestHeadLimits = RequestHeadLimits(
                    headTimeout: .seconds(1),
                    bodyTimeout: .seconds(1),
                    closeLinger: .milliseconds(200)
                )
                $0.idleTimeoutSeconds = 1
            }
        ) { server in
            let port = server.port
            let enrich =
                "POST /api/v2/books/enrich HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"isbn\":"
            let clients: [Crowd.Ending] = [
                .init(send: "", then: .close), .init(send: "", then: .reset),
                .init(send: "GET /health HTTP/1.1\r\nHo", then: .close),
                .init(send: "GET /health HTTP/1.1\r\nHo", then: .reset),
                .init(send: enrich, then: .close), .init(send: enrich, then: .reset),
                // The answer read, then quiet until the idle timeout closes the connection.
                .init(send: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n", then: .waitForClose),
                // Nothing sent: closed at the head deadline.
                .init(send: "", then: .waitForClose),
                // A body that stops: 408 at the body deadline.
                .init(send: enrich, then: .waitForClose),
                // The answer read, then reset.
                .init(send: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n", then: .readThenReset),
            ]
            try await offThePool { try Crowd.end(port: port, clients, within: .seconds(30).scaled) }
            // Every connection closed on the server's side too.
            let deadline = ContinuousClock.now + .seconds(30).scaled
            while server.services.connections.open > 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(server.services.connections.open == 0)
        }
        // The server is down: every connection's handling (and its log lines) has ended.
        let records = capture.records
        let errors = records.filter { $0.level >= .error }
        #expect(errors.isEmpty, "\(errors.map(\.text))")
        #expect(
            records.contains { $0.level == .debug && $0.text.contains("unhandled error") },
            "a body cut short was not seen"
        )
    }

    /// A route's own failure (not a connection's end) is still logged as an error.
    @Test func aRealFailureIsStillAnError() async throws {
        let capture = LogCapture()
        try await withServer(capture: capture, modules: LocalServer.defaultModules + [FailingRouteModule()]) { server in
            let port = server.port
            let replies = await offThePool {
                Crowd.ask(
                    port: port,
                    clients: 1,
                    request: "GET /failing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                    within: .seconds(30).scaled
                )
            }
            #expect(replies.first?.hasPrefix("HTTP/1.1 500") == true, "\(replies.first?.prefix(40) ?? "")")
        }
        #expect(capture.records.contains { $0.level == .error && $0.text.contains("unhandled error") })
    }

    @Test func ordinaryEndsAreToldFromFaults() {
        #expect(ConnectionEnd.isOrdinary(IOError(errnoCode: ECONNRESET, reason: "read")))
        #expect(ConnectionEnd.isOrdinary(IOError(errnoCode: EPIPE, reason: "write")))
        #expect(ConnectionEnd.isOrdinary(ChannelError.eof))
        #expect(ConnectionEnd.isOrdinary(ChannelError.ioOnClosedChannel))
        #expect(ConnectionEnd.isOrdinary(HTTPParserError.invalidEOFState))
        #expect(!ConnectionEnd.isOrdinary(IOError(errnoCode: EMFILE, reason: "accept")))
        #expect(!ConnectionEnd.isOrdinary(HTTPParserError.invalidHeaderToken))
        #expect(!ConnectionEnd.isOrdinary(ChannelError.inappropriateOperationForState))
        #expect(!ConnectionEnd.isOrdinary(CocoaError(.fileReadNoPermission)))
    }
}

/// A route that fails with an error of no known kind.
private struct FailingRouteModule: ServerRouteModule {
    struct Failure: Error {}

    func install(on router: Router<ServerRequestContext>, services: ServerServices) throws -> ServerModuleInstallation {
        router.get("/failing") { _, _ -> Response in throw Failure() }
        return ServerModuleInstallation()
    }
}

/// Log lines kept for a test to read.
final class LogCapture: Sendable {
    struct Record: Sendable {
        let level: Logger.Level
        let text: String
    }

    private let kept = Mutex<[Record]>([])

    var records: [Record] { kept.withLock { $0 } }

    func append(_ record: Record) { kept.withLock { $0.append(record) } }
}

/// Keeps every line (message and metadata) in a `LogCapture`.
struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = metadata.merging(event.metadata ?? [:]) { $1 }.map { "\($0)=\($1)" }.sorted().joined(
            separator: " "
        )
        capture.append(.init(level: event.level, text: "\(event.message) \(fields)"))
    }
}

/// Many clients at once over non-blocking POSIX sockets, driven by `poll` on one thread.
enum Crowd {
    /// `clients` connections each send `request` whole and read its answer (to the end of its
    /// `Content-Length` body, or the close); every socket stays open until all have their answer or
    /// `within` passes, then all are closed. The answers, in order ("" for none).
    static func ask(port: Int, clients: Int, request: String, within: Duration) -> [String] {
        let deadline = ContinuousClock.now + within
        let bytes = Array(request.utf8)
        let sockets = (0..<clients).map { _ in connectNonBlocking(port: port) }
        var sent = [Int](repeating: 0, count: clients)
        var replies = [[UInt8]](repeating: [], count: clients)
        var done = sockets.map { $0 < 0 }
        defer { for descriptor in sockets where descriptor >= 0 { close(descriptor) } }
        while done.contains(false), ContinuousClock.now < deadline {
            let waiting = done.indices.filter { !done[$0] }
            var polls = waiting.map {
                pollfd(fd: sockets[$0], events: Int16(sent[$0] < bytes.count ? POLLOUT : POLLIN), revents: 0)
            }
            guard poll(&polls, nfds_t(polls.count), 100) > 0 else { continue }
            for (slot, index) in waiting.enumerated() where polls[slot].revents != 0 {
                if sent[index] < bytes.count {
                    let count = bytes[sent[index]...].withUnsafeBytes {
                        send(sockets[index], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    }
                    if count > 0 { sent[index] += count } else if errno != EAGAIN { done[index] = true }
                    continue
                }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = recv(sockets[index], &buffer, buffer.count, 0)
                if count > 0 { replies[index] += buffer[0..<count] }
                if count == 0 || (count < 0 && errno != EAGAIN) || isWhole(replies[index]) { done[index] = true }
            }
        }
        return replies.map { String(decoding: $0, as: UTF8.self) }
    }

    /// How a client of `end` leaves.
    struct Ending: Sendable {
        enum Then: Sendable {
            /// Close (FIN).
            case close
            /// Reset (RST: `SO_LINGER` 0, then close).
            case reset
            /// Wait for the server to close the connection.
            case waitForClose
            /// Read the answer, then reset.
            case readThenReset
        }

        let send: String
        let then: Then
    }

    /// Each client connects, sends its bytes and leaves as it says, all at once; returns when every
    /// one has left (a client waiting for the server's close gives up at `within`).
    static func end(port: Int, _ clients: [Ending], within: Duration) throws {
        let deadline = ContinuousClock.now + within
        var sockets = clients.map { _ in connectNonBlocking(port: port) }
        defer { for descriptor in sockets where descriptor >= 0 { close(descriptor) } }
        func leave(_ index: Int, reset: Bool) {
            if reset {
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(sockets[index], SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            }
            close(sockets[index])
            sockets[index] = -1
        }
        guard !sockets.contains(where: { $0 < 0 }) else { throw POSIXError(.ECONNREFUSED) }
        var open = Array(clients.indices)
        var sent = [Bool](repeating: false, count: clients.count)
        var answered = [[UInt8]](repeating: [], count: clients.count)
        while !open.isEmpty, ContinuousClock.now < deadline {
            var polls = open.map { pollfd(fd: sockets[$0], events: Int16(sent[$0] ? POLLIN : POLLOUT), revents: 0) }
            guard poll(&polls, nfds_t(polls.count), 100) > 0 else { continue }
            var left: [Int] = []
            for (slot, index) in open.enumerated() {
                guard polls[slot].revents != 0 else { continue }
                if !sent[index] {
                    let bytes = Array(clients[index].send.utf8)
                    _ = bytes.withUnsafeBytes { send(sockets[index], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    sent[index] = true
                    // Give the server a moment to read the bytes before the close or reset.
                    Thread.sleep(forTimeInterval: 0.05)
                    switch clients[index].then {
                    case .close:
                        leave(index, reset: false)
                        left.append(index)
                    case .reset:
                        leave(index, reset: true)
                        left.append(index)
                    case .waitForClose, .readThenReset: break
                    }
                    continue
                }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = recv(sockets[index], &buffer, buffer.count, 0)
                if count > 0 { answered[index] += buffer[0..<count] }
                if clients[index].then == .readThenReset, isWhole(answered[index]) {
                    leave(index, reset: true)
                    left.append(index)
                } else if count == 0 || (count < 0 && errno != EAGAIN) {
                    left.append(index)
                }
            }
            open.removeAll { left.contains($0) }
        }
    }

    /// A non-blocking socket connecting to 127.0.0.1:`port` (-1 when it could not be made).
    static func connectNonBlocking(port: Int) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 || errno == EINPROGRESS else {
            close(descriptor)
            return -1
        }
        return descriptor
    }

    /// Whether `reply` holds a whole response: its head and `Content-Length` bytes of body.
    static func isWhole(_ reply: [UInt8]) -> Bool {
        guard let end = RequestHeadVerdict.headEnd(reply) else { return false }
        let head = String(decoding: reply[..<end], as: UTF8.self).lowercased()
        let length =
            head.components(separatedBy: "\r\n")
            .first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return reply.count - end >= length
    }
}
