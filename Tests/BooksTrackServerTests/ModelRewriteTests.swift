import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `bts serve` keeps answering semantic searches when `model.safetensors` is truncated or rewritten
/// in place under it: it died of SIGBUS (exit 135), using the weights straight from a mapping of
/// the file, when `scripts/setup` (`unzip -o`) or a `cp` rewrote it.
@Suite("bts serve: the model file rewritten under it", .serialized, .enabled(if: BTSExecutable.url != nil))
struct ModelRewriteTests {
    /// The installed model's directory (as `scripts/model-dir` finds it), when it has the files.
    static var installedModel: URL? {
        let environment = ProcessInfo.processInfo.environment
        let directory =
            environment["BTS_MODEL_DIR"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["XDG_DATA_HOME"] ?? (NSHomeDirectory() + "/.local/share"))
            .appendingPathComponent("bts/models/all-MiniLM-L6-v2")
        let files = ["vocab.txt", "model.safetensors"].map { directory.appendingPathComponent($0).path }
        return files.allSatisfy { FileManager.default.fileExists(atPath: $0) } ? directory : nil
    }

    /// One GET on a connection of its own; the whole answer (the server closes it).
    static func get(_ path: String, port: Int) async throws -> String {
        let socket = try SlowClientTests.connected(port)
        defer { close(socket) }
        var timeout = timeval(tv_sec: TestTime.seconds(120), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        _ = request.withCString { write(socket, $0, strlen($0)) }
        return await offThePool { () -> String in
            var answer: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(socket, &buffer, buffer.count)
                if count <= 0 { break }
                answer += buffer[0..<count]
            }
            return String(decoding: answer, as: UTF8.self)
        }
    }

    @Test(.enabled(if: installedModel != nil, "the sentence model is not installed (scripts/setup)"))
    func aTruncatedModelLeavesTheServerAnswering() async throws {
        let binary = try #require(BTSExecutable.url)
        let installed = try #require(Self.installedModel)
        let home = try TempDir("serve-model")
        defer { home.cleanup() }
        let model = home.url.appendingPathComponent("model")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        for name in ["vocab.txt", "model.safetensors"] {
            try FileManager.default.copyItem(
                at: installed.appendingPathComponent(name),
                to: model.appendingPathComponent(name)
            )
        }
        let log = home.url.appendingPathComponent("serve.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        let cache = home.url.appendingPathComponent("cache")
        try SharedCatalog.link(into: cache)
        let server = SpawnedProcess()
        server.executableURL = binary
        server.arguments = ["serve", "--port", "0", "--cache-dir", cache.path, "--rate-limits", "off"]
        var environment = [
            "PATH": "/usr/bin:/bin", "HOME": home.url.path, "LANG": "C.UTF-8", "BTS_MODEL_DIR": model.path,
        ]
        for key in ["LD_LIBRARY_PATH", "BTS_OPENBLAS"] { environment[key] = ProcessInfo.processInfo.environment[key] }
        server.environment = environment.compactMapValues { $0 }
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
        let first = try await Self.get("/api/v2/search?q=a%20boy%20wizard%20at%20school&mode=semantic", port: listening)
        try #require(first.hasPrefix("HTTP/1.1 200"), "\(first.prefix(400))")
        // As `unzip -o` and `cp` do: the same inode, cut to nothing, then written again.
        try #require(truncate(model.appendingPathComponent("model.safetensors").path, 0) == 0)
        let second = try await Self.get("/api/v2/search?q=whales%20and%20the%20sea&mode=semantic", port: listening)
        #expect(second.hasPrefix("HTTP/1.1 200"), "\(second.prefix(400))")
        #expect(server.isRunning, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }
}
