import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A misbehaving HTTP server on 127.0.0.1 port 0, written on raw sockets so that it can send what
/// no well-behaved framework would: garbage instead of HTTP, redirects to impossible ports,
/// escape-laden bodies, HTML 502 pages, or silence. Each connection's request head is read
/// (bounded), then `respond` decides what happens.
final class HostileServer: Sendable {
    /// What to do with one request.
    enum Behaviour: Sendable {
        /// Send these bytes, then close.
        case raw([UInt8])
        /// Send nothing and keep the connection open until the server stops.
        case silence
        /// Close at once without a byte.
        case close
        /// Send these bytes and keep the connection for the next request on it.
        case keepOpen([UInt8])
    }

    let port: Int
    private let listener: Int32
    private let requests = Mutex<[String]>([])
    private let stopped = Mutex(false)
    private let held = Mutex<[Int32]>([])
    private let accepted = Mutex(0)
    private let endedByClient = Mutex(0)

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// The request heads received so far (first line and headers).
    var received: [String] { requests.withLock { $0 } }
    /// The connections accepted so far.
    var connections: Int { accepted.withLock { $0 } }
    /// The kept connections the client closed (end of stream while waiting for a request).
    var closedByClient: Int { endedByClient.withLock { $0 } }

    init(_ respond: @escaping @Sendable (_ head: String) -> Behaviour) throws {
        let (descriptor, port) = try Self.listen()
        listener = descriptor
        self.port = port
        let thread = Thread { [self] in self.acceptLoop(respond) }
        thread.start()
    }

    /// Stops accepting and closes every held connection.
    func stop() {
        stopped.withLock { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for descriptor in held.withLock({ $0 }) { close(descriptor) }
    }

    /// Runs `body` with a server, always stopping it.
    static func with<T>(
        _ respond: @escaping @Sendable (String) -> Behaviour,
        _ body: (HostileServer) async throws -> T
    ) async throws -> T {
        let server = try HostileServer(respond)
        defer { server.stop() }
        return try await body(server)
    }

    // MARK: - Replies

    static func response(
        status: String,
        headers: [(String, String)] = [],
        body: [UInt8] = [],
        contentType: String = "application/json"
    ) -> Behaviour {
        var head =
            "HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        return .raw(Array(head.utf8) + body)
    }

    static func json(_ text: String, status: String = "200 OK") -> Behaviour {
        response(status: status, body: Array(text.utf8))
    }

    static func redirect(to location: String, status: String = "302 Found") -> Behaviour {
        response(status: status, headers: [("Location", location)])
    }

    // MARK: - Sockets

    private static func listen() throws -> (Int32, Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, Glibc.listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        var actual = sockaddr_in()
        var actualLength = length
        _ = withUnsafeMutablePointer(to: &actual) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &actualLength) }
        }
        return (descriptor, Int(UInt16(bigEndian: actual.sin_port)))
    }

    private func acceptLoop(_ respond: @escaping @Sendable (String) -> Behaviour) {
        while !stopped.withLock({ $0 }) {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            accepted.withLock { $0 += 1 }
            let thread = Thread { [self] in self.serve(client, respond) }
            thread.start()
        }
    }

    private func serve(_ client: Int32, _ respond: @Sendable (String) -> Behaviour) {
        while serveOne(client, respond) {}
    }

    /// Reads one request head and answers it; true when the connection stays for another.
    private func serveOne(_ client: Int32, _ respond: @Sendable (String) -> Behaviour) -> Bool {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 256 * 1024 {
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { break }
            head += buffer[0..<count]
            // Not HTTP (a TLS ClientHello): answer what came at once.
            if let first = head.first, !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) { break }
            if head.count >= 4, String(decoding: head, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        if head.isEmpty {
            // The client closed a kept connection (or sent nothing).
            endedByClient.withLock { $0 += 1 }
            close(client)
            return false
        }
        let text = String(decoding: head, as: UTF8.self)
        requests.withLock { $0.append(text) }
        switch respond(text) {
        case .keepOpen(let bytes):
            Self.writeAll(bytes, to: client)
            return true
        case .raw(let bytes):
            Self.writeAll(bytes, to: client)
            shutdown(client, Int32(SHUT_WR))
            // Let the client read everything before the socket goes away.
            var drain = [UInt8](repeating: 0, count: 1024)
            var timeout = timeval(tv_sec: TestTime.seconds(10), tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            while read(client, &drain, drain.count) > 0 {}
            close(client)
        case .silence:
            held.withLock { $0.append(client) }
        case .close:
            close(client)
        }
        return false
    }

    private static func writeAll(_ bytes: [UInt8], to client: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            if written <= 0 { break }
            offset += written
        }
    }
}
