import BTSEmbeddedBackend
import BTSTerminal
import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

@testable import BTSShell

#if canImport(Glibc)
import Glibc
#endif

/// `api --input -`: standard input as the body, refused (usage, nothing sent) where reading it
/// would wait on a terminal or swallow the commands bts is reading; the bounded reader itself.
/// (The real binary with a body piped in: `ApiStandardInputProcessTests`.)
@Suite("api --input -")
struct ApiCommandInputTests {
    @Test func aTerminalIsRefusedAndNothingIsSent() async throws {
        try await withShell(terminal: TerminalInfo(stdinIsTerminal: true)) { harness in
            #expect(await harness.run("api POST /api/v2/books/enrich --input -") == 2)
            #expect(
                harness.err.contains("--input - reads the body from standard input, which is a terminal here"),
                "\(harness.err)"
            )
            #expect(await harness.shell.lastExchange == nil)
            #expect(await harness.lastResult()["error"]?["code"] == .string("USAGE"))
        }
    }

    @Test func standardInputThatCarriesTheCommandsIsRefusedAndNothingIsSent() async throws {
        let directory = try makeTempDirectory("api-input")
        defer { try? FileManager.default.removeItem(at: directory) }
        var options = ShellOptions(
            backend: BackendRequest(forceEmbedded: true),
            terminal: .pipes,
            environment: [
                "HOME": directory.path, "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
                "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path,
                "XDG_STATE_HOME": directory.appendingPathComponent("state").path,
            ]
        )
        options.backendOptions.embedded = LocalEmbeddedBackend(
            configuration: ServerConfiguration(),
            catalog: try SharedShellCatalog.get()
        )
        options.commandsComeFromStandardInput = true
        let sink = BufferOutputSink()
        let shell = Shell(options: options, sink: sink)
        let status = await shell.run("api POST /api/v2/books/enrich --input -", name: "<stdin>", directory: directory)
        await shell.shutdown()
        #expect(status == 2)
        #expect(
            sink.standardError.contains("--input - cannot read standard input while bts reads its commands from it"),
            "\(sink.standardError)"
        )
        #expect(await shell.lastExchange == nil)
    }

    @Test func whereTheCommandsComeFromDecidesWhetherStandardInputIsFree() {
        #expect(ShellOptions.readsCommandsFromStandardInput(commands: [], script: []))
        #expect(ShellOptions.readsCommandsFromStandardInput(commands: [], script: ["/dev/stdin"]))
        #expect(ShellOptions.readsCommandsFromStandardInput(commands: [], script: ["/dev/fd/0", "arg"]))
        #expect(!ShellOptions.readsCommandsFromStandardInput(commands: ["api /health"], script: []))
        #expect(!ShellOptions.readsCommandsFromStandardInput(commands: [], script: ["script.bts"]))
        #expect(!ShellOptions.readsCommandsFromStandardInput(commands: [], script: ["/dev/fd/3"]))
    }

    @Test func theRefusalsAreOneSentenceEach() {
        #expect(ApiCommand.standardInputRefusal(isTerminal: false, carriesCommands: false) == nil)
        let terminal = ApiCommand.standardInputRefusal(isTerminal: true, carriesCommands: false) ?? ""
        let script = ApiCommand.standardInputRefusal(isTerminal: false, carriesCommands: true) ?? ""
        for sentence in [terminal, script] {
            #expect(!sentence.isEmpty && !sentence.contains("\n") && !sentence.hasSuffix("."), "\(sentence)")
        }
        #expect(script.contains("reads its commands from it"))
        // At the prompt standard input is both: the terminal is what to say.
        #expect(ApiCommand.standardInputRefusal(isTerminal: true, carriesCommands: true) == terminal)
    }

    /// The reader takes what a pipe holds up to its end, stops one byte past the bound, and
    /// gives up when cancelled while nothing comes.
    @Test func theReaderIsBoundedAndCancellable() throws {
        func pipePair() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw POSIXError(.EIO) }
            return (ends[0], ends[1])
        }
        func write(_ text: String, to descriptor: Int32) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        }

        let whole = try pipePair()
        write("{\"isbns\":[\"9780441172719\"]}", to: whole.write)
        close(whole.write)
        #expect(
            StandardInputBody.readAll(whole.read, limit: 100) { false }
                == .body(Data("{\"isbns\":[\"9780441172719\"]}".utf8))
        )
        close(whole.read)

        let exact = try pipePair()
        write("0123456789", to: exact.write)
        close(exact.write)
        #expect(StandardInputBody.readAll(exact.read, limit: 10) { false } == .body(Data("0123456789".utf8)))
        close(exact.read)

        let over = try pipePair()
        write("0123456789A", to: over.write)
        #expect(StandardInputBody.readAll(over.read, limit: 10) { false } == .tooLarge)
        close(over.write)
        close(over.read)

        // A writer that never writes nor closes: cancellation ends the wait.
        let silent = try pipePair()
        #expect(StandardInputBody.readAll(silent.read, limit: 10) { true } == .cancelled)
        close(silent.write)
        close(silent.read)
    }
}
