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
@Suite("bts serve shutdown", .enabled(if: BTSExecutable.url != nil))
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
        let server = SpawnedProcess()
        server.executableURL = binary
        server.arguments = ["serve", "--port", "0", "--body-timeout", "600", "--cache-dir", home.url.appendingPathComponent("cache").path]
        server.environment = ["PATH": "/usr/bin:/bin", "HOME": home.url.path, "LANG": "C.UTF-8"]
        server.standardInput = FileHandle.nullDevice
        server.standardOutput = logHandle
        server.standardError = logHandle
        try server.run()
        try logHandle.close()
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() } }
        var port: Int?
        let started = ContinuousClock.now
        while port == nil, server.isRunning, ContinuousClock.now - started < .seconds(120) {
            port = ServeLog.port(in: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
            try await Task.sleep(for: .milliseconds(50))
        }
        let listening = try #require(port, "bts serve did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        let upload = try SlowClientTests.connected(listening)
        defer { close(upload) }
        // As `curl -F file=@books.csv` starts it; the rest of the megabyte never comes.
        let head = "POST /v3/jobs/imports HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=B\r\n"
            + "Content-Length: 1000000\r\n\r\n--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n"
            + "Content-Type: text/csv\r\n\r\nisbn\n978"
        _ = head.withCString { write(upload, $0, strlen($0)) }
        // The request reaches its handler (a health check on another connection is answered first).
        let probe = try SlowClientTests.connected(listening)
        defer { close(probe) }
        let health = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        _ = health.withCString { write(probe, $0, strlen($0)) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        #expect(read(probe, &buffer, buffer.count) > 0)
        try await Task.sleep(for: .milliseconds(300))
        for signal in signals {
            kill(server.processIdentifier, signal)
            try await Task.sleep(for: .milliseconds(200))
        }
        let signalled = ContinuousClock.now
        while server.isRunning, ContinuousClock.now - signalled < .seconds(60) {
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
        #expect(log.contains("requests still in flight \(LocalServer.shutdownGrace.components.seconds) s after the signal: stopping without them"), "\(log)")
        #expect(log.contains("bts server stopped"), "\(log)")
    }

    @Test func aSecondSigintStopsAtOnce() async throws {
        let (exited, status, log) = try await Self.stopWithUploadInFlight([SIGINT, SIGINT])
        #expect(exited, "still running 60 s after two SIGINTs: \(log)")
        #expect(status == 0, "\(log)")
        #expect(log.contains("a second signal: stopping without the requests still in flight"), "\(log)")
    }
}
