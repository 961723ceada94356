import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The real `bts` executable for end-to-end tests: `$BTS_BINARY` when set, else the first
/// `.build/debug/bts` found walking up from this source file (the package's build directory).
package enum BTSBinary {
    package static let path: String? = BTSExecutable.path

    /// Why the terminal tests are skipped, shown by Swift Testing.
    package static let skipReason: String = {
        if path == nil {
            return "no bts binary: build it first (`swift build --product bts`) or set BTS_BINARY"
        }
        return "tmux is not installed"
    }()

    package static var isAvailable: Bool { path != nil }
}

/// Per-test directories: HOME, XDG config/state/cache, a work directory; the cache holds the
/// tests' one shared catalog, linked in (built once before the tests, read-only).
package final class TerminalSandbox: @unchecked Sendable {
    package let root: URL

    package init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("bts-e2e-\(UUID().uuidString.prefix(8))")
        for sub in ["home", "config", "state", "work", "cache"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(sub),
                withIntermediateDirectories: true
            )
        }
        try SharedCatalog.seed(cacheHome: cache)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    package var work: URL { root.appendingPathComponent("work") }
    package var historyFile: URL { root.appendingPathComponent("state/bts/history") }

    /// The sandbox's `XDG_CACHE_HOME`: the shared catalog, linked in (`SharedCatalog.seed`).
    package var cache: URL { root.appendingPathComponent("cache") }

    package var environment: [String: String] {
        [
            "HOME": root.appendingPathComponent("home").path,
            "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
            "XDG_STATE_HOME": root.appendingPathComponent("state").path,
            "XDG_CACHE_HOME": cache.path,
            "XDG_DATA_HOME": root.appendingPathComponent("data").path,
            "TERM": "screen",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "EDITRC": "/nonexistent",
            "BTS_API_URL": "",
            "NO_COLOR": "1",
            // Tall output is paged at the prompt; tests that do not test the pager read it whole.
            "PAGER": "cat",
        ]
    }

    /// Starts `bts ARGS` in a tmux terminal, in the work directory.
    /// `bts ARGUMENTS` in a tmux session, in the work directory, with the sandbox's environment
    /// plus `extra` (e.g. PAGER, EDITOR).
    package func startShell(
        _ arguments: [String],
        width: Int = 120,
        height: Int = 40,
        environment extra: [String: String] = [:]
    ) throws -> TmuxSession {
        guard let binary = BTSBinary.path else { throw TmuxSession.Failure(message: BTSBinary.skipReason, screen: "") }
        let script =
            "cd " + Self.quote(work.path) + " && exec " + ([binary] + arguments).map(Self.quote).joined(separator: " ")
        return try TmuxSession(
            command: ["/bin/sh", "-c", script],
            environment: environment.merging(extra) { $1 },
            width: width,
            height: height
        )
    }

    /// Writes an executable shell script (a stand-in pager or editor) under the sandbox; its path.
    package func writeExecutable(_ name: String, _ text: String) throws -> String {
        let url = root.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url.path
    }

    package static func quote(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// A `bts serve` process on a free port (for latency injection); killed by `stop()` or deinit.
/// Its log goes to a file (a pipe could be inherited by a tmux server started meanwhile).
package final class ServeProcess: @unchecked Sendable {
    package let process = SpawnedProcess()
    package let port: Int
    package let logURL: URL

    /// Starts `bts serve --port 0 EXTRA...` and waits (bounded) for its "listening on" line.
    package init(extra: [String], sandbox: TerminalSandbox) async throws {
        guard let binary = BTSBinary.path else { throw TmuxSession.Failure(message: BTSBinary.skipReason, screen: "") }
        logURL = sandbox.root.appendingPathComponent("serve.log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--port", "0"] + extra
        process.environment = ProcessInfo.processInfo.environment.merging(sandbox.environment) { $1 }
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try log.close()
        let deadline = ContinuousClock.now + Duration.seconds(120).scaled
        while true {
            let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
            if let port = ServeLog.port(in: text) {
                self.port = port
                return
            }
            guard process.isRunning, ContinuousClock.now < deadline else {
                process.terminate()
                throw TmuxSession.Failure(message: "bts serve did not start", screen: text)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    deinit { stop() }

    package func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
