import Foundation
import Synchronization
import TestSupport
import Testing

/// The real `bts` executable: example scripts, `-c`, pipes, signals, usage errors.
@Suite("bts binary")
struct BinaryTests {
    /// `.build/debug/bts` of the package this file belongs to (or `BTS_BINARY`).
    static let binary: URL? = BTSExecutable.url

    static var examplesDirectory: URL {
        // The repository's scripts/examples, found from this file (…/Tests/BTSEndToEndTests/Scripts/).
        let repository = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return repository.appendingPathComponent("scripts/examples")
    }

    typealias Outcome = ProcessOutcome

    /// Runs bts with `arguments`, optional stdin text, a private XDG environment. With `interruptAfter`,
    /// SIGINT is sent once stdout shows that text (bts is running its commands then; a fixed delay
    /// raced bts's start on a loaded machine). Pipes are read and the exit awaited on threads of
    /// their own: blocking the cooperative pool (2 threads here) stalls every other test.
    /// With `config`, that text is written to `$XDG_CONFIG_HOME/bts/config.toml` first.
    static func run(
        _ arguments: [String],
        stdin: String? = nil,
        interruptAfter marker: String? = nil,
        config: String? = nil,
        directory: URL? = nil
    ) async throws -> Outcome {
        guard let binary else { throw SkipError() }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bts-bin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        if let config {
            let directory = home.appendingPathComponent("config/bts")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(config.utf8).write(to: directory.appendingPathComponent("config.toml"))
        }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["XDG_CACHE_HOME"] = SharedCatalog.directory.path  // reuse the built catalog
        environment.removeValue(forKey: "BTS_API_URL")
        // The cache directory is shared: a server on a port an earlier test's server had must not
        // be answered from that one's cached responses (CacheProcessTests cover the cache).
        environment["BTS_CACHE"] = "off"
        _ = try SharedCatalog.get()
        return try await ChildProcess.run(
            binary,
            arguments,
            environment: environment,
            directory: directory,
            stdin: stdin ?? "",
            interruptAfter: marker
        )
    }

    struct SkipError: Error, CustomStringConvertible {
        var description: String { "bts binary not built (.build/debug/bts missing; run 'swift build' first) — skipped" }
    }

    static var hasBinary: Bool {
        if binary == nil { print("BinaryTests: \(SkipError())") }
        return binary != nil
    }

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func exampleScriptsPassThroughTheRunner() async throws {
        guard let binary = Self.binary else { return }
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Self.examplesDirectory.appendingPathComponent("run.sh").path, binary.path]
        var environment = ProcessInfo.processInfo.environment
        _ = try SharedCatalog.get()
        environment["XDG_CACHE_HOME"] = SharedCatalog.directory.path
        environment["XDG_STATE_HOME"] =
            FileManager.default.temporaryDirectory.appendingPathComponent("bts-run-\(UUID().uuidString)").path
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = await PipeReader(out.fileHandleForReading).finished()
        await offThePool { process.waitUntilExit() }
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("ok    tour.bts"))
        #expect(text.contains("ok    smoke.bts"))
        #expect(text.contains("ok    batch.bts"))
    }

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func severalDashCCommands() async throws {
        let outcome = try await Self.run([
            "--local", "-c", "set x 4; echo one $x", "-c", "search isbn 9780439023481; echo ${_.results[0].title}",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("one 4\n"))
        #expect(outcome.stdout.hasSuffix("The Hunger Games (The Hunger Games, #1)\n"))
        #expect(outcome.stdout.contains("\"isbn\":\"9780439023481\""), "json on a pipe")
    }

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func commandsFromAPipeShowNoPrompt() async throws {
        let outcome = try await Self.run(["--local"], stdin: "echo hello\nsearch isbn 9780439023481 --output csv\n")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("hello\nisbn,title"))
        #expect(!outcome.stdout.contains("bts>") && !outcome.stderr.contains("bts>"))
        #expect(!outcome.stdout.contains("\u{1B}") && !outcome.stderr.contains("\u{1B}"), "no escape code in a pipe")
    }

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first")) func usageErrorsExitTwo()
        async throws
    {
        #expect(try await Self.run(["--output", "yaml", "-c", "help"]).status == 2)
        #expect(try await Self.run(["--nope"]).status == 2)
        let syntax = try await Self.run(["-c", "serch dune"])
        #expect(syntax.status == 2)
        #expect(syntax.stderr.contains("-c:1:1: error: unknown command 'serch' (did you mean 'search'?)"))
        // A dialect the client does not know is refused, naming the ones it does.
        let dialect = try await Self.run(["--dialect", "v9", "-c", "help"])
        #expect(dialect.status == 2)
        #expect(dialect.stderr.contains("'auto', 'v1' or 'v3'"), "\(dialect.stderr)")
        // A data builder's usage error shows its own usage, not the shell's.
        let builder = try await Self.run(["catalog-clean"])
        #expect(builder.status == 2)
        #expect(builder.stderr.contains("USAGE: catalog-clean <input> <output>"), "\(builder.stderr)")
    }

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func networkErrorExitsThree() async throws {
        let outcome = try await Self.run([
            "--api", "http://127.0.0.1:\(closedPort())", "--timeout", "2", "-c", "search isbn 9780439023481",
        ])
        #expect(outcome.status == 3, "\(outcome.stderr)")
    }

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first")) func sigintExits130()
        async throws
    {
        let outcome = try await Self.run(["-c", "echo started; sleep 30s; echo never"], interruptAfter: "started\n")
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(!outcome.stdout.contains("never"))
    }

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func versionHelpAndCompletion() async throws {
        let version = try await Self.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("0."))
        let help = try await Self.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--continue-on-error"))
        let completion = try await Self.run(["--generate-completion-script", "bash"])
        #expect(completion.status == 0)
        #expect(completion.stdout.contains("_bts"))
    }
}
