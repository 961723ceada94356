import BooksTrackServer
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `bts serve` stops soon after SIGTERM or SIGINT although a request body is still arriving: it
/// waited for every request in flight, so an upload sent slowly kept it running until the body
/// time-out (58 s with three `curl --limit-rate 20k` uploads and the default 60 s). Now the wait
/// is `LocalServer.shutdownGrace` (5 s), and a second signal ends it at once.
@Suite("bts serve shutdown", .serialized, .enabled(if: BTSExecutable.url != nil))
struct ServeShutdownTests {
    /// `bts serve --port 0` with a body time-out far beyond the test's bound, one request whose
    /// body never finishes in flight; then `signals` are sent. Returns whether it exited within
    /// 60 s, its status and its log.
    static func stopWithUploadInFlight(_ signals: [Int32]) async throws -> (exited: Bool, status: Int32, log: String) {
        let binary = try #require(BTSExecutable.url)
        let home = try TempDir("serve-stop")
        defer { home.cleanup() }
        let log = home.url.appendingPathComponent("serve.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        let cache = home.url.appendingPathComponent("cache")
        try SharedCatalog.link(into: cache)  // opened, not built
        let server = SpawnedProcess()
        server.executableURL = binary
        // A search held in the server for 10 minutes: a request surely in flight beside the upload.
        server.arguments = [
            "serve", "--port", "0", "--body-timeout", "600", "--cache-dir", cache.path,
            "--enable-fault-injection", "--latency", "/v1/search/title=600000",
        ]
        server.environment = ["PATH": "/usr/bin:/bin", "HOME": home.url.path, "LANG": "C.UTF-8"]
        server.standardInput = FileHandle.nullDevice
        server.standardOutput = logHandle
        server.standardError = logHandle
        try server.run()
        try logHandle.close()
        defer {
            if server.isRunning {
                kill(server.processIdentifier, SIGKILL)
                server.waitUntilExit()
            }
        }
        var port: Int?
        let started = ContinuousClock.now
        while port == nil, server.isRunning, ContinuousClock.now - started < Duration.seconds(120).scaled {
            port = ServeLog.port(in: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
            try await Task.sleep(for: .milliseconds(50))
        }
        let listening = try #require(
            port,
            "bts serve did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")"
        )
        let upload = try SlowClientTests.connected(listening)
        defer { close(upload) }
        // As `curl -F file=@books.csv` starts it; the rest of the megabyte never comes.
        let head =
            "POST /v3/jobs/imports HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=B\r\n"
            + "Content-Length: 1000000\r\n\r\n--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n"
            + "Content-Type: text/csv\r\n\r\nisbn\n978"
        _ = head.withCString { write(upload, $0, strlen($0)) }
        let search = try SlowClientTests.connected(listening)
        defer { close(search) }
        let held = "GET /v1/search/title?q=dune HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        _ = held.withCString { write(search, $0, strlen($0)) }
        // Wait (bounded) until the server has read the search: its end of that connection holds no
        // unread byte. The assertions below say whether the search was in flight; this only waits.
        let searchPort = Self.localPort(search)
        _ = try await eventually { Self.unreadBytes(serverPort: listening, clientPort: searchPort) == 0 }
        // The request reaches its handler (a health check on another connection is answered first).
        let probe = try SlowClientTests.connected(listening)
        defer { close(probe) }
        let health = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        _ = health.withCString { write(probe, $0, strlen($0)) }
        let answered = await offThePool { () -> Int in
            var buffer = [UInt8](repeating: 0, count: 4096)
            return read(probe, &buffer, buffer.count)
        }
        #expect(answered > 0)
        // A second signal once the server has said it took the first (two pending SIGINTs are one).
        for (index, signal) in signals.enumerated() {
            if index > 0 {
                let taken = try await eventually {
                    ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("stopping: requests in flight")
                }
                #expect(taken, "the server did not say it took the first signal")
            }
            kill(server.processIdentifier, signal)
        }
        let signalled = ContinuousClock.now
        while server.isRunning, ContinuousClock.now - signalled < Duration.seconds(60).scaled {
            try await Task.sleep(for: .milliseconds(50))
        }
        let exited = !server.isRunning
        if exited { server.waitUntilExit() }
        return (exited, exited ? server.terminationStatus : -1, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    @Test func sigtermStopsAfterTheGraceThoughAnUploadIsInFlight() async throws {
        let (exited, status, log) = try await Self.stopWithUploadInFlight([SIGTERM])
        #expect(exited, "still running 60 s after SIGTERM: \(log)")
        #expect(status == 0, "\(log)")
        #expect(
            log.contains(
                "requests still in flight \(LocalServer.shutdownGrace.components.seconds) s after the signal: stopping without them"
            ),
            "\(log)"
        )
        #expect(log.contains("bts server stopped"), "\(log)")
    }

    /// The local port of a connected socket.
    static func localPort(_ descriptor: Int32) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The bytes the server has not read yet on its end of the loopback connection from
    /// `clientPort` (the kernel's receive queue in /proc/net/tcp), or nil when it is not listed.
    static func unreadBytes(serverPort: Int, clientPort: Int) -> Int? {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return nil }
        let local = String(format: ":%04X", serverPort)
        let remote = String(format: ":%04X", clientPort)
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 4, fields[1].hasSuffix(local), fields[2].hasSuffix(remote) else { continue }
            let queues = fields[4].split(separator: ":")  // tx_queue:rx_queue, hexadecimal
            return queues.count == 2 ? Int(queues[1], radix: 16) : nil
        }
        return nil
    }

    @Test func aSecondSigintStopsAtOnce() async throws {
        let (exited, status, log) = try await Self.stopWithUploadInFlight([SIGINT, SIGINT])
        #expect(exited, "still running 60 s after two SIGINTs: \(log)")
        #expect(status == 0, "\(log)")
        #expect(log.contains("a second signal: stopping without the requests still in flight"), "\(log)")
    }
}
