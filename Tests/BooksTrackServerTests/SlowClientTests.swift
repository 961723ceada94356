import Foundation
import NIOCore
import Testing

@testable import BooksTrackServer

#if canImport(Glibc)
import Glibc
#endif

/// Clients that send their request bodies slowly, over raw sockets against a live server: a body
/// trickled a byte at a time is answered 408 and closed at the body deadline (it was never cut, and
/// 300 of them used up the file descriptors), `/health` stays answered meanwhile, later requests on
/// a kept-alive connection have the same deadline, pipelined requests are all answered, and past
/// `maxConnections` a new connection waits until one closes.
@Suite("Slow clients", .serialized)
struct SlowClientTests {
    func withServer(
        jobs: Bool,
        _ tweak: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (RunningServer) async throws -> Void
    ) async throws {
        let temp = try TempDir("slow")
        defer { temp.cleanup() }
        var config = ServerConfiguration(port: 0)
        config.jobsDirectory = temp.url
        config.requestHeadLimits = RequestHeadLimits(headTimeout: .seconds(5), bodyTimeout: .seconds(1))
        config.rateLimitsEnabled = false
        tweak(&config)
        try await LiveServer.running(
            config,
            catalog: FakeCatalog(),
            modules: jobs ? LocalServer.defaultModules : [CoreRoutes()],
            body
        )
    }

    /// A connected socket to the server (30 s receive timeout, scaled).
    static func connected(_ port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        var timeout = timeval(tv_sec: TestTime.seconds(30), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    static func write(_ descriptor: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Whether anything can be read within `milliseconds` (data or the close).
    static func readable(_ descriptor: Int32, within milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, milliseconds) > 0
    }

    /// Reads until the server closes (or the receive timeout).
    static func readAll(_ descriptor: Int32) -> String {
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return String(decoding: reply, as: UTF8.self) }
            reply += buffer[0..<count]
        }
    }

    /// Reads a response head (until its blank line, the close, or the receive time-out).
    static func readHead(_ descriptor: Int32) -> String {
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while RequestHeadVerdict.headEnd(reply) == nil {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            reply += buffer[0..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    /// Sends `head` at once, then its body of `length` bytes a byte every 100 ms until the server
    /// answers or closes, or the whole body is sent: what it answered. A 408 means the server cut the
    /// body before it was complete (a whole body gets another answer): no clock is read.
    static func trickle(_ descriptor: Int32, head: String, length: Int) -> String {
        guard write(descriptor, head) else { return "" }
        for _ in 0..<length {
            if readable(descriptor, within: 100) { break }
            if !write(descriptor, "x") { break }
        }
        return readAll(descriptor)
    }

    static func slowEnrich(_ port: Int) throws -> String {
        let descriptor = try connected(port)
        defer { close(descriptor) }
        return trickle(
            descriptor,
            head:
                "POST /api/v2/books/enrich HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
            length: 1000
        )
    }

    static func health(_ port: Int) throws -> String {
        let descriptor = try connected(port)
        defer { close(descriptor) }
        _ = write(descriptor, "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return readAll(descriptor)
    }

    /// The deadline here is 3 s (the others use 1 s). `/health` is asked while the slow bodies are
    /// held; how fast it answers depends on the machine's load (the whole suite shares two cores), so
    /// only that it answers is checked.
    @Test(arguments: [true, false])
    func aBodySentAByteAtATimeIsAnswered408AtItsDeadlineAndHealthStaysAnswered(jobs: Bool) async throws {
        try await withServer(jobs: jobs, { $0.requestHeadLimits.bodyTimeout = .seconds(3) }) { server in
            let port = server.port
            let slow = (0..<20).map { _ in Task { try await offThePool { try Self.slowEnrich(port) } } }
            try await Task.sleep(for: .milliseconds(300))
            let reply = try await offThePool { try Self.health(port) }
            #expect(reply.hasPrefix("HTTP/1.1 200"), "\(reply.prefix(40))")
            for task in slow {
                // The deadline is 3 s; the whole body takes 100 s (it was never cut before).
                let reply = try await task.value
                #expect(reply.hasPrefix("HTTP/1.1 408"), "\(reply.prefix(40))")
            }
        }
    }

    @Test func aLaterRequestOnAKeptAliveConnectionHasTheSameDeadline() async throws {
        try await withServer(jobs: true) { server in
            let port = server.port
            let (first, second) = try await offThePool { () throws -> (String, String) in
                let descriptor = try Self.connected(port)
                defer { close(descriptor) }
                _ = Self.write(descriptor, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                var buffer = [UInt8](repeating: 0, count: 4096)
                guard Self.readable(descriptor, within: Int32(TestTime.seconds(30) * 1000)) else { return ("", "") }
                let count = recv(descriptor, &buffer, buffer.count, 0)
                let first = String(decoding: buffer[0..<max(0, count)], as: UTF8.self)
                // The body deadline is 1 s; the whole body takes 50 s.
                let second = Self.trickle(
                    descriptor,
                    head:
                        "POST /api/v2/books/enrich HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n",
                    length: 500
                )
                return (first, second)
            }
            #expect(first.hasPrefix("HTTP/1.1 200"), "\(first.prefix(40))")
            #expect(second.hasPrefix("HTTP/1.1 408"), "\(second.prefix(40))")
        }
    }

    @Test(arguments: [true, false])
    func pipelinedRequestsAreAllAnswered(jobs: Bool) async throws {
        try await withServer(jobs: jobs) { server in
            let port = server.port
            let body = #"{"isbn":"9780441172719"}"#
            let reply = try await offThePool { () throws -> String in
                let descriptor = try Self.connected(port)
                defer { close(descriptor) }
                _ = Self.write(
                    descriptor,
                    "POST /api/v2/books/enrich HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                        + "POST /api/v2/books/enrich HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n"
                        + "5\r\n{\"isb\r\n\(String(body.utf8.count - 5, radix: 16))\r\n\(body.dropFirst(5))\r\n0\r\n\r\n"
                        + "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                )
                return Self.readAll(descriptor)
            }
            let statuses = reply.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0.prefix(3)) }
            #expect(statuses.count == 3, "\(statuses)")
            #expect(statuses.last == "200")
        }
    }

    @Test func pastMaxConnectionsANewConnectionWaitsUntilOneCloses() async throws {
        try await withServer(
            jobs: false,
            {
                $0.maxConnections = 4
                $0.requestHeadLimits.headTimeout = .seconds(600)
            }
        ) { server in
            let port = server.port
            let held = try (0..<4).map { _ in try Self.connected(port) }
            // Each holds a connection with a partial head (the head deadline is far away: only
            // closing them frees a place).
            for descriptor in held { _ = Self.write(descriptor, "GET /health HTTP/1.1\r\n") }
            try await Task.sleep(for: .milliseconds(200))
            let waiting = try Self.connected(port)
            defer { close(waiting) }
            _ = Self.write(waiting, "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let early = await offThePool { Self.readable(waiting, within: 700) }
            #expect(!early, "a fifth connection was served while four were open")
            for descriptor in held { close(descriptor) }
            let reply = await offThePool { Self.readAll(waiting) }
            #expect(reply.hasPrefix("HTTP/1.1 200"), "\(reply.prefix(40))")
        }
    }

    /// A busy server (all `--max-jobs` jobs unfinished) refuses a new upload before reading its body:
    /// it read the whole upload first, so with 30 uploads at once each 503 came after its body had
    /// arrived (up to 21 s in a debug build) and an upload trickling in held its answer until the
    /// body time-out. In both dialects, whose upload routes are separate.
    @Test(arguments: ["/api/v2/imports", "/v3/jobs/imports", "/v3/jobs/scans", "/v1/scan/bookshelf"])
    func aBusyServerRefusesAnUploadBeforeItsBody(_ path: String) async throws {
        try await withServer(
            jobs: true,
            {
                $0.requestHeadLimits = RequestHeadLimits(headTimeout: .seconds(5), bodyTimeout: .seconds(120))
                $0.jobs.maxConcurrentJobs = 1
                $0.jobs.itemPacing = .seconds(30)
            }
        ) { server in
            let csv =
                "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n\r\nTitle,Author\nA,B\nC,D\n\r\n--B--\r\n"
            let first = try Self.connected(server.port)
            defer { close(first) }
            #expect(
                Self.write(
                    first,
                    "POST /v3/jobs/imports HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=B\r\n"
                        + "Content-Length: \(csv.utf8.count)\r\nConnection: close\r\n\r\n" + csv
                )
            )
            let accepted = await offThePool { Self.readAll(first) }
            #expect(accepted.hasPrefix("HTTP/1.1 202"), "\(accepted.prefix(200))")
            // The second upload sends its head and a little of a megabyte, never the rest.
            let second = try Self.connected(server.port)
            defer { close(second) }
            let field = path.contains("scan") ? "photos[]" : "file"
            #expect(
                Self.write(
                    second,
                    "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=B\r\n"
                        + "Content-Length: 1000000\r\n\r\n--B\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"a\"\r\n\r\nTitle"
                )
            )
            // Answered without the rest of the body (the socket's receive time-out is 30 s, the
            // server's body time-out 120 s), saying that the connection will not be reused.
            let refused = await offThePool { Self.readHead(second) }
            #expect(refused.hasPrefix("HTTP/1.1 503"), "\(path): \(refused.prefix(300))")
            #expect(refused.lowercased().contains("connection: close"), "\(path): \(refused.prefix(300))")
        }
    }
}
