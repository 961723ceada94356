import BTSEmbeddedBackend
import BTSShell
import BTSTerminal
import BooksTrackCatalog
import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

/// The shell tests' name for the one shared catalog.
typealias SharedShellCatalog = SharedCatalog

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
        environment extra: [String: String] = [:],
        embedded wrap: (LocalEmbeddedBackend) -> any EmbeddedBackend = { $0 }
    ) throws -> ShellHarness {
        let directory = try makeTempDirectory("shell")
        var environment = [
            "HOME": directory.path,
            "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path,
            "XDG_STATE_HOME": directory.appendingPathComponent("state").path,
        ]
        environment.merge(extra) { $1 }
        var options = ShellOptions(
            backend: backend,
            settings: settings,
            continueOnError: continueOnError,
            terminal: terminal,
            environment: environment,
            scriptName: "test.bts",
            scriptArguments: scriptArguments
        )
        options.backendOptions.embedded = wrap(
            LocalEmbeddedBackend(configuration: server, catalog: try SharedShellCatalog.get())
        )
        // A safety deadline: a full test run shares 2 cores among hundreds of tests.
        options.backendOptions.timeout = Duration.seconds(60).scaled
        let sink = BufferOutputSink()
        return ShellHarness(shell: Shell(options: options, sink: sink), sink: sink, directory: directory)
    }

    /// Runs `text` as a script named `name` whose directory is the harness's.
    func run(_ text: String, name: String = "test.bts") async -> Int32 {
        await shell.run(text, name: name, directory: directory)
    }

    /// Runs one line as if typed at the REPL's prompt.
    func typed(_ line: String) async -> Int32 {
        await shell.run(line, name: "<stdin>", directory: directory, interactive: true)
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
        server: server,
        backend: backend,
        settings: settings,
        terminal: terminal,
        scriptArguments: scriptArguments,
        continueOnError: continueOnError,
        environment: environment
    )
    do {
        try await body(harness)
    } catch {
        await harness.close()
        throw error
    }
    await harness.close()
}
