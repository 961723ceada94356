import Foundation
import Logging
import NIOCore
import Testing

@testable import BooksTrackServer

#if canImport(Glibc)
import Glibc
import BooksTrackContract
#endif

/// The server against bad and slow clients, over raw sockets: malformed heads are answered
/// 400/431 and closed, a head that never completes gets 408 and is closed, `/health` is never
/// rate-limited. Both server shapes: plain HTTP/1 and HTTP/1 with the jobs' WebSocket upgrade.
@Suite("Hostile requests")
struct HostileRequestTests {
    /// A server with the default modules (jobs included: the WebSocket-upgrade pipeline) or core only.
    func withServer(
        jobs: Bool,
        _ tweak: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (RunningServer) async throws -> Void
    ) async throws {
        let temp = try TempDir("hostile")
        defer { temp.cleanup() }
        var config = ServerConfiguration(port: 0)
        config.jobsDirectory = temp.url
        config.requestHeadLimits = RequestHeadLimits(maxHeadBytes: 32 * 1024, headTimeout: .milliseconds(800))
        tweak(&config)
        try await LiveServer.running(
            config,
            catalog: FakeCatalog(),
            modules: jobs ? LocalServer.defaultModules : [CoreRoutes()],
            body
        )
    }

    /// `blockingExchange` on its own thread: blocking socket calls on the cooperative pool would
    /// starve the server's own request handling (and distort every timing).
    static func exchange(
        port: Int,
        _ bytes: [UInt8],
        pause: Duration? = nil
    ) async throws -> (reply: String, closed: Bool) {
        try await offThePool { try blockingExchange(port: port, bytes, pause: pause) }
    }

    /// Sends `bytes` (optionally slowly), then reads until the server closes or 30 s pass.
    /// Returns what arrived and whether the server closed the connection.
    static func blockingExchange(
        port: Int,
        _ bytes: [UInt8],
        pause: Duration? = nil
    ) throws -> (reply: String, closed: Bool) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        // Generous: the test process can stall under load.
        var timeout = timeval(tv_sec: TestTime.seconds(30), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let pause {
            for byte in bytes {
                var one = byte
                if send(descriptor, &one, 1, Int32(MSG_NOSIGNAL)) != 1 { break }
                Thread.sleep(
                    forTimeInterval: Double(pause.components.attoseconds) / 1e18 + Double(pause.components.seconds)
                )
            }
        } else {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes {
                    send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if sent <= 0 { break }
                offset += sent
            }
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return (String(decoding: reply, as: UTF8.self), true) }
            // A reset (the server closed while our bytes were still unread) is a close too.
            if count < 0 { return (String(decoding: reply, as: UTF8.self), errno == ECONNRESET) }
            reply += buffer[0..<count]
        }
    }

    static let malformed: [(String, [UInt8], String)] = [
        ("garbage request line", Array("\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{FC}\r\n\r\n".utf8), "400"),
        ("HTTP/0.9", Array("GET /health\r\n\r\n".utf8), "400"),
        (
            "bad Content-Length", Array("POST /v1/enrich HTTP/1.1\r\nHost: x\r\nContent-Length: 12abc\r\n\r\n".utf8),
            "400"
        ),
        (
            "two Content-Lengths",
            Array("POST /v1/enrich HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nab".utf8), "400"
        ),
        (
            "81 KB header",
            Array(
                ("GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 81 * 1024) + "\r\n\r\n")
                    .utf8
            ), "431"
        ),
        ("header name with a space", Array("GET /health HTTP/1.1\r\nBad Name: x\r\n\r\n".utf8), "400"),
    ]

    @Test(arguments: [true, false])
    func malformedHeadsAreAnsweredAndClosed(jobs: Bool) async throws {
        try await withServer(jobs: jobs) { server in
            for (name, bytes, status) in Self.malformed {
                let (reply, closed) = try await Self.exchange(port: server.port, bytes)
                #expect(reply.hasPrefix("HTTP/1.1 \(status)"), "\(name): \(reply.prefix(40))")
                #expect(closed, "\(name): left open")
            }
            // A good request still works on the same server.
            let (reply, _) = try await Self.exchange(
                port: server.port,
                Array("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
            )
            #expect(reply.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test(arguments: [true, false])
    func slowHeadGets408AndIsClosed(jobs: Bool) async throws {
        try await withServer(jobs: jobs) { server in
            // 1 byte every 200 ms: the 800 ms head deadline passes long before the head is whole.
            let (reply, closed) = try await Self.exchange(
                port: server.port,
                Array("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
                pause: .milliseconds(200)
            )
            #expect(reply.hasPrefix("HTTP/1.1 408"))
            #expect(closed)
        }
    }

    @Test(arguments: [true, false])
    func aHeadArrivingInPiecesWithinTheDeadlineIsServed(jobs: Bool) async throws {
        try await withServer(jobs: jobs) { server in
            // One byte per read, 5 ms apart (~0.25 s in all, under the 0.8 s head deadline).
            let started = ContinuousClock.now
            let (reply, _) = try await Self.exchange(
                port: server.port,
                Array("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8),
                pause: .milliseconds(5)
            )
            // A loaded full suite once stretched those 50 sends past the deadline, and the server
            // rightly answered 408; a head that took that long is not this test's case.
            let tookTooLong = ContinuousClock.now - started > .milliseconds(800)
            #expect(
                reply.hasPrefix("HTTP/1.1 200") || (tookTooLong && reply.hasPrefix("HTTP/1.1 408")),
                "\(reply.prefix(60))"
            )
        }
    }

    @Test func healthIsNeverRateLimited() async throws {
        try await withServer(jobs: false, { $0.rateLimits[.global] = .perMinute(3) }) { server in
            for _ in 0..<10 {
                let (reply, _) = try await Self.exchange(
                    port: server.port,
                    Array("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
                )
                #expect(reply.hasPrefix("HTTP/1.1 200"))
            }
            // Other routes still count against the global budget.
            var statuses: [String] = []
            for _ in 0..<5 {
                let (reply, _) = try await Self.exchange(
                    port: server.port,
                    Array("GET /v1/search/title?q=dune HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
                )
                statuses.append(String(reply.prefix(12)))
            }
            #expect(statuses.contains("HTTP/1.1 429"))
        }
    }

    @Test func scannerFedOneByteAtATimeAgreesWithTheWholeVerdict() {
        let limits = RequestHeadLimits(maxHeadBytes: 256, headTimeout: .seconds(1))
        let heads = [
            "GET / HTTP/1.1\r\nHost: x\r\n\r\n", "GET / HTTP/1.1\nHost: x\n\n", "GET /\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n", "\u{16}\u{03}\u{01}binarybinary\r\n\r\n",
            "GET / HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: 40) + "\r\n",
        ]
        for head in heads {
            var scanner = RequestHeadScanner(limits: limits)
            var verdict = RequestHeadVerdict.needMore
            for byte in head.utf8 where verdict == .needMore { verdict = scanner.feed([byte]) }
            let whole = RequestHeadVerdict.judge(Array(head.utf8), limits: limits)
            #expect(verdict == whole || (whole == .needMore && verdict != .accept), "\(head.prefix(20))")
        }
    }

    @Test func verdictIsPure() {
        let limits = RequestHeadLimits(maxHeadBytes: 64, headTimeout: .seconds(1))
        #expect(RequestHeadVerdict.judge(Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8), limits: limits) == .needMore)
        #expect(RequestHeadVerdict.judge(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), limits: limits) == .accept)
        #expect(RequestHeadVerdict.judge(Array("GET / HTTP/1.1\nHost: x\n\n".utf8), limits: limits) == .accept)
        #expect(
            RequestHeadVerdict.judge(Array("GET / HTTP/2.0\r\n\r\n".utf8), limits: limits)
                == .reject(status: 400, reason: "Bad Request")
        )
        #expect(
            RequestHeadVerdict.judge(Array(repeating: UInt8(ascii: "A"), count: 65), limits: limits)
                == .reject(status: 431, reason: "Request Header Fields Too Large")
        )
        #expect(
            RequestHeadVerdict.judge(Array("GET /\r\n".utf8), limits: limits)
                == .reject(status: 400, reason: "Bad Request")
        )
    }
}
