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

    /// Runs `bts ARGS` with `input` as stdin (bounded wait); returns status and both streams.
    /// stdin is a pipe, as in `cat script | bts`; it is created close-on-exec so no other child
    /// (a tmux server started meanwhile by another test) keeps it open and hides the end of input.
    /// stdout and stderr go to files, which need no end-of-file from anyone.
    static func run(_ arguments: [String], input: String, sandbox: TerminalSandbox) async throws -> Outcome {
        let outURL = sandbox.root.appendingPathComponent("stdout-\(UUID().uuidString)")
        let errURL = sandbox.root.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let stdout = try FileHandle(forWritingTo: outURL)
        let stderr = try FileHandle(forWritingTo: errURL)
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw POSIXError(.EIO) }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let readEnd = FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true)
        let writeEnd = FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BTSBinary.path ?? "/nonexistent")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(sandbox.environment) { $1 }
        process.currentDirectoryURL = sandbox.work
        process.standardInput = readEnd
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        try readEnd.close()
        try writeEnd.write(contentsOf: Data(input.utf8))
        try writeEnd.close()
        let deadline = ContinuousClock.now + .seconds(180)
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.waitUntilExit()
        try stdout.close()
        try stderr.close()
        return Outcome(status: process.terminationStatus,
                       stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                       stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
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
