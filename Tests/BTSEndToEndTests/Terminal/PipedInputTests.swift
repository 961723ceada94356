import Foundation
import TestSupport
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
        try await run(arguments, bytes: Array(input.utf8), sandbox: sandbox)
    }

    /// The same with `bytes` as stdin, through a pipe or, `fromFile`, from a file (`bts < script`).
    /// A stream that is not UTF-8 reads as "" (nothing in it is repaired).
    static func run(
        _ arguments: [String],
        bytes: [UInt8],
        fromFile: Bool = false,
        sandbox: TerminalSandbox
    ) async throws -> Outcome {
        let outURL = sandbox.root.appendingPathComponent("stdout-\(UUID().uuidString)")
        let errURL = sandbox.root.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let stdout = try FileHandle(forWritingTo: outURL)
        let stderr = try FileHandle(forWritingTo: errURL)
        let input: FileHandle
        var writeEnd: FileHandle?
        if fromFile {
            let inURL = sandbox.root.appendingPathComponent("stdin-\(UUID().uuidString)")
            try Data(bytes).write(to: inURL)
            input = try FileHandle(forReadingFrom: inURL)
        } else {
            var descriptors: [Int32] = [-1, -1]
            guard pipe(&descriptors) == 0 else { throw POSIXError(.EIO) }
            for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            input = FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true)
            writeEnd = FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true)
        }
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: BTSBinary.path ?? "/nonexistent")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(sandbox.environment) { $1 }
        process.currentDirectoryURL = sandbox.work
        process.standardInput = input
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        try input.close()
        if let writeEnd {
            try writeEnd.write(contentsOf: Data(bytes))
            try writeEnd.close()
        }
        let deadline = ContinuousClock.now + Duration.seconds(180).scaled
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
        return Outcome(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        )
    }

    @Test("a piped script runs without any prompt and leaves no history")
    func pipedScriptShowsNoPrompt() async throws {
        let sandbox = try TerminalSandbox()
        let outcome = try await Self.run(
            ["--local"],
            input: "echo piped-one\nset x \"café Günter\"\necho \"[$x]\"\n",
            sandbox: sandbox
        )
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

    /// bts driven line by line by another program: each command's answer arrives while stdin is
    /// still open (nothing is read whole first); an unclosed quote waits for its next line; an
    /// error names the stream's line; the first failure ends the run with its status.
    @Test("piped lines run as they arrive")
    func pipedLinesRunAsTheyArrive() async throws {
        let sandbox = try TerminalSandbox()
        var descriptors: [Int32] = [-1, -1]
        var answers: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0, pipe(&answers) == 0 else { throw POSIXError(.EIO) }
        for descriptor in descriptors + answers { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let readEnd = FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true)
        let writeEnd = FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true)
        let answerRead = FileHandle(fileDescriptor: answers[0], closeOnDealloc: true)
        let answerWrite = FileHandle(fileDescriptor: answers[1], closeOnDealloc: true)
        let errURL = sandbox.root.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let stderr = try FileHandle(forWritingTo: errURL)
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: BTSBinary.path ?? "/nonexistent")
        process.arguments = ["--local", "--output", "json"]
        process.environment = ProcessInfo.processInfo.environment.merging(sandbox.environment) { $1 }
        process.currentDirectoryURL = sandbox.work
        process.standardInput = readEnd
        process.standardOutput = answerWrite
        process.standardError = stderr
        try process.run()
        try readEnd.close()
        try answerWrite.close()
        defer { if process.isRunning { process.terminate() } }

        /// Reads one line of bts's stdout (bounded: the test fails rather than hangs; generous, as
        /// the first answer may wait for the catalog cache to be built on a loaded machine).
        var pending = Data()
        func answer() async throws -> String {
            let deadline = ContinuousClock.now + Duration.seconds(180).scaled
            while true {
                if let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    return line
                }
                var poller = pollfd(fd: answers[0], events: Int16(POLLIN), revents: 0)
                if poll(&poller, 1, 100) > 0 {
                    let chunk = answerRead.availableData
                    if chunk.isEmpty { return "<end of output>" }
                    pending.append(chunk)
                }
                if ContinuousClock.now > deadline { return "<no answer in 180 s>" }
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        try writeEnd.write(contentsOf: Data("echo ready\n".utf8))
        #expect(try await answer() == "ready")
        try writeEnd.write(contentsOf: Data("search isbn 9780439023481\n".utf8))
        #expect(try await answer().contains("\"title\":\"The Hunger Games (The Hunger Games, #1)\""))
        try writeEnd.write(contentsOf: Data("echo \"two\n".utf8))
        try await Task.sleep(for: .milliseconds(200))
        try writeEnd.write(contentsOf: Data("lines\"\n".utf8))
        #expect(try await answer() == "two")
        #expect(try await answer() == "lines")
        // An open block waits for its `end`: nothing runs before it arrives.
        try writeEnd.write(contentsOf: Data("for w in x y\necho [$w]\n".utf8))
        try await Task.sleep(for: .milliseconds(300))
        var early = pollfd(fd: answers[0], events: Int16(POLLIN), revents: 0)
        #expect(pending.isEmpty && poll(&early, 1, 0) == 0, "nothing ran before the block's end")
        try writeEnd.write(contentsOf: Data("end\n".utf8))
        #expect(try await answer() == "[x]")
        #expect(try await answer() == "[y]")
        try writeEnd.write(contentsOf: Data("similar 9780000000002\necho not reached\n".utf8))
        try writeEnd.close()
        #expect(try await answer() == "<end of output>")
        process.waitUntilExit()
        try stderr.close()
        #expect(process.terminationStatus == 1)
        let errors = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        #expect(errors.contains("<stdin>:8:"), "\(errors)")
    }
}
