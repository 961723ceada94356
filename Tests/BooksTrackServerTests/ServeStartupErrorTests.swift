import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `bts serve` start-up failures through the real binary: one plain sentence each and an exit
/// status (3 for the socket, 1 for files), never NIO's `bind(descriptor:ptr:bytes:) … (errno: 98)`,
/// `NSCocoaErrorDomain Code=516` or `SQLite error 26 … while executing …`.
@Suite("bts serve start-up errors", .enabled(if: BTSExecutable.url != nil))
struct ServeStartupErrorTests {
    static func serve(_ arguments: [String], home: URL) async throws -> ProcessOutcome {
        let binary = try #require(BTSExecutable.url)
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            "XDG_CACHE_HOME": home.appendingPathComponent("cache").path, "LANG": "C.UTF-8",
        ]
        return try await ChildProcess.run(
            binary,
            ["serve"] + arguments,
            environment: environment,
            timeout: .seconds(120)
        )
    }

    /// A socket listening on a free loopback port (closed by the caller).
    static func listeningSocket() throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> Bool in
                bind(descriptor, address, length) == 0 && listen(descriptor, 1) == 0
                    && getsockname(descriptor, address, &length) == 0
            }
        }
        try #require(bound)
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    static func expectPlain(_ outcome: ProcessOutcome, status: Int32, _ sentence: String) {
        #expect(outcome.status == status, "\(outcome)")
        #expect(outcome.stderr.contains("bts serve: error: \(sentence)"), "\(outcome)")
        for raw in ["errno", "NSCocoaErrorDomain", "SQLite error", "while executing", "bind(descriptor"] {
            #expect(!outcome.stderr.contains(raw), "\(raw) in \(outcome)")
        }
    }

    @Test func eachStartUpFailureIsOnePlainSentence() async throws {
        let temp = try TempDir("serve-start")
        defer { temp.cleanup() }
        let cache = temp.url.appendingPathComponent("cache")

        // A file where the data directory should be.
        let file = temp.url.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        Self.expectPlain(
            try await Self.serve(["--port", "0", "--cache-dir", file.path], home: temp.url),
            status: 1,
            "cannot use \(file.path) for the catalog: a file is in the way of the directory; remove it or choose another with --cache-dir"
        )

        // A busy port (the shared catalog linked in: serve opens it before it binds).
        try SharedCatalog.link(into: cache)
        let (descriptor, port) = try Self.listeningSocket()
        let busy = try await Self.serve(["--port", String(port), "--cache-dir", cache.path], home: temp.url)
        close(descriptor)
        Self.expectPlain(
            busy,
            status: 3,
            "port \(port) is already in use on 127.0.0.1; choose another with --port (--port 0 takes any free one)"
        )

        // A jobs store that is not a database.
        let jobs = cache.appendingPathComponent("jobs")
        try FileManager.default.createDirectory(at: jobs, withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8192).write(to: jobs.appendingPathComponent("jobs.sqlite"))
        Self.expectPlain(
            try await Self.serve(["--port", "0", "--cache-dir", cache.path], home: temp.url),
            status: 1,
            "the jobs store in \(jobs.path) is damaged or not a SQLite database; move the file aside and start again (it is made anew)"
        )
    }
}
