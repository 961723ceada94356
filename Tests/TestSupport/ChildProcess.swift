import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The `bts` executable the tests drive: `BTS_BINARY` when set (and executable), else the
/// package's `.build/debug/bts` (then `release`), found upward from this file.
public enum BTSExecutable {
    public static let url: URL? = locate()
    public static var path: String? { url?.path }

    private static func locate(file: String = #filePath) -> URL? {
        let manager = FileManager.default
        if let explicit = ProcessInfo.processInfo.environment["BTS_BINARY"], !explicit.isEmpty {
            return manager.isExecutableFile(atPath: explicit) ? URL(fileURLWithPath: explicit) : nil
        }
        var directory = URL(fileURLWithPath: file).deletingLastPathComponent()
        while directory.path != "/" {
            for configuration in ["debug", "release"] {
                let candidate = directory.appendingPathComponent(".build/\(configuration)/bts")
                if manager.isExecutableFile(atPath: candidate.path) { return candidate }
            }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }
}

/// How a child process ended and what it wrote.
public struct ProcessOutcome: Sendable, CustomStringConvertible {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    public var description: String { "exit \(status)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }
}

/// Runs a program to its end without blocking the cooperative pool (2 threads here): its pipes are
/// read and its exit awaited on threads of their own.
public enum ChildProcess {
    /// Runs `executable ARGUMENTS` and returns its status and both streams.
    /// - `stdin`: text written to its standard input, then closed (default: /dev/null).
    /// - `interruptAfter`: once stdout contains this text (or after 120 s), SIGINT is sent.
    /// - `timeout`: a bound on a hang; the process is terminated after it.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String], directory: URL? = nil,
        stdin: String? = nil, interruptAfter marker: String? = nil, timeout: Duration = .seconds(600)
    ) async throws -> ProcessOutcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        let input = stdin.map { _ in Pipe() }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input ?? FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let exited = Mutex(false)
        let stdoutReader = PipeReader(out.fileHandleForReading)
        let stderrReader = PipeReader(err.fileHandleForReading)
        if let stdin, let input {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        let watchdog = Task {
            try? await Task.sleep(for: timeout)
            exited.withLock { if !$0 { _ = kill(pid, SIGTERM) } }
        }
        if let marker {
            let deadline = ContinuousClock.now + .seconds(120)
            while !stdoutReader.text.contains(marker), !stdoutReader.isFinished, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            exited.withLock { if !$0 { _ = kill(pid, SIGINT) } }
        }
        let stdoutText = await stdoutReader.finished()
        let stderrText = await stderrReader.finished()
        await offThePool {
            process.waitUntilExit()
            exited.withLock { $0 = true }
        }
        watchdog.cancel()
        return ProcessOutcome(status: process.terminationStatus, stdout: stdoutText, stderr: stderrText)
    }
}

/// Reads a pipe to its end on a thread of its own; the text so far is readable at any time.
public final class PipeReader: Sendable {
    private final class Buffer: Sendable {
        let state = Mutex<(data: Data, finished: Bool)>((Data(), false))
    }
    private let buffer: Buffer
    private let done: Task<Void, Never>

    public init(_ handle: FileHandle) {
        let buffer = Buffer()
        self.buffer = buffer
        done = Task {
            await offThePool {
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    buffer.state.withLock { $0.data.append(chunk) }
                }
                buffer.state.withLock { $0.finished = true }
            }
        }
    }

    public var text: String { buffer.state.withLock { String(decoding: $0.data, as: UTF8.self) } }
    public var isFinished: Bool { buffer.state.withLock { $0.finished } }

    /// The whole text, once the writer closed the pipe.
    public func finished() async -> String {
        await done.value
        return text
    }
}
