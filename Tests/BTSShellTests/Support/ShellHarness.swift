import BTSEmbeddedBackend
import BTSTerminal
import BooksTrackCatalog
import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

@testable import BTSShell

/// One catalog per test process (building it takes a few seconds), in its own temp dir.
enum SharedShellCatalog {
    static let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("bts-shell-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")

    static let result: Result<SQLiteCatalog, any Error> = Result {
        atexit { try? FileManager.default.removeItem(at: SharedShellCatalog.directory) }
        return try SQLiteCatalog.open(cacheDirectory: directory)
    }

    static func get() throws -> SQLiteCatalog { try result.get() }
}

/// A shell with captured output, its own XDG directories, and (by default) the embedded backend
/// over the shared catalog. Call `close()` at the end of the test.
struct ShellHarness {
    let shell: Shell
    let sink: BufferOutputSink
    let directory: URL

    static func make(
        server: ServerConfiguration = ServerConfiguration(),
        backend: BackendRequest = BackendRequest(forceEmbedded: true),
        settings: ShellSettings = ShellSettings(),
        terminal: TerminalInfo = .pipes,
        scriptArguments: [String] = [],
        continueOnError: Bool = false,
        environment extra: [String: String] = [:]
    ) throws -> ShellHarness {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bts-shell-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var environment = [
            "HOME": directory.path,
            "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path,
            "XDG_STATE_HOME": directory.appendingPathComponent("state").path,
        ]
        environment.merge(extra) { $1 }
        var options = ShellOptions(
            backend: backend, settings: settings, continueOnError: continueOnError, terminal: terminal,
            environment: environment, scriptName: "test.bts", scriptArguments: scriptArguments)
        options.backendOptions.embedded = LocalEmbeddedBackend(configuration: server, catalog: try SharedShellCatalog.get())
        options.backendOptions.timeout = .seconds(10)
        let sink = BufferOutputSink()
        return ShellHarness(shell: Shell(options: options, sink: sink), sink: sink, directory: directory)
    }

    /// Runs `text` as a script named `name` whose directory is the harness's.
    func run(_ text: String, name: String = "test.bts") async -> Int32 {
        await shell.run(text, name: name, directory: directory)
    }

    var out: String { sink.standardOutput }
    var err: String { sink.standardError }

    /// The last result (`$_`) as JSON text.
    func lastResult() async -> JSONValue { await shell.lastResult }

    /// Writes a file into the harness directory.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    func close() async {
        await shell.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A TCP port on 127.0.0.1 with nothing listening: bound and never listened on, and kept bound for
/// the rest of the test process, so that a connection is refused and no other test's server (on
/// port 0) can be given the port meanwhile (a port closed at once can be; the "unreachable" server
/// then answers: the likely cause of a full-suite run's exit 0 instead of 3).
func closedPort() -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Runs `body` with a fresh harness and always closes it (server and client shut down).
func withShell(
    server: ServerConfiguration = ServerConfiguration(),
    backend: BackendRequest = BackendRequest(forceEmbedded: true),
    settings: ShellSettings = ShellSettings(),
    terminal: TerminalInfo = .pipes,
    scriptArguments: [String] = [],
    continueOnError: Bool = false,
    environment: [String: String] = [:],
    _ body: (ShellHarness) async throws -> Void
) async throws {
    let harness = try ShellHarness.make(
        server: server, backend: backend, settings: settings, terminal: terminal, scriptArguments: scriptArguments,
        continueOnError: continueOnError, environment: environment)
    do {
        try await body(harness)
    } catch {
        await harness.close()
        throw error
    }
    await harness.close()
}
