import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real `bts` binary reading commands from a pipe: no prompt, no line editing, no history.
@Suite("bts with piped input", .enabled(if: BTSBinary.isAvailable, Comment(rawValue: BTSBinary.skipReason)))
struct PipedInputTests {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `bts ARGS` with `input` on a pipe (bounded wait); returns status and both streams.
    static func run(_ arguments: [String], input: String, sandbox: TerminalSandbox) async throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BTSBinary.path ?? "/nonexistent")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(sandbox.environment) { $1 }
        process.currentDirectoryURL = sandbox.work
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        async let out = Task.detached { stdout.fileHandleForReading.readDataToEndOfFile() }.value
        async let err = Task.detached { stderr.fileHandleForReading.readDataToEndOfFile() }.value
        let deadline = ContinuousClock.now + .seconds(180)
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: await out, as: UTF8.self),
                       stderr: String(decoding: await err, as: UTF8.self))
    }

    @Test("a piped script runs without any prompt and leaves no history")
    func pipedScriptShowsNoPrompt() async throws {
        let sandbox = try TerminalSandbox()
        let outcome = try await Self.run(
            ["--local"], input: "echo piped-one\nset x \"café Günter\"\necho \"[$x]\"\n", sandbox: sandbox)
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        #expect(outcome.stdout.contains("piped-one"))
        #expect(outcome.stdout.contains("[café Günter]"))
        #expect(!outcome.stdout.contains("bts:"), "no prompt on stdout: \(outcome.stdout)")
        #expect(!outcome.stderr.contains("bts:embedded>"), "no prompt on stderr: \(outcome.stderr)")
        #expect(!outcome.stdout.contains("\u{1B}["), "no escape sequences when not on a terminal")
        #expect(!FileManager.default.fileExists(atPath: sandbox.historyFile.path))
    }

    @Test("a piped unclosed quote continues on the next line, like in the terminal")
    func pipedContinuation() async throws {
        let sandbox = try TerminalSandbox()
        let outcome = try await Self.run(["--local"], input: "echo \"two\nlines\"\necho done\n", sandbox: sandbox)
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        #expect(outcome.stdout.contains("two\nlines"))
        #expect(outcome.stdout.contains("done"))
        #expect(!outcome.stdout.contains("...>"))
    }
}
