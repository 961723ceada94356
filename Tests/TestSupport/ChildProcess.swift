import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The `bts` executable the tests drive: `BTS_BINARY` when set (and executable), else the
/// package's `.build/debug/bts` (then `release`), found upward from this file.
package enum BTSExecutable {
    package static let url: URL? = locate()
    package static var path: String? { url?.path }

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
package struct ProcessOutcome: Sendable, CustomStringConvertible {
    package var status: Int32
    package var stdout: String
    package var stderr: String

    package init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    package var description: String { "exit \(status)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }
}

/// Runs a program to its end without blocking the cooperative pool (2 threads here): its pipes are
/// read and its exit awaited on threads of their own.
package enum ChildProcess {
    /// Runs `executable ARGUMENTS` and returns its status and both streams.
    /// - `stdin`: text written to its standard input, then closed (default: /dev/null).
    /// - `interruptAfter`: once stdout contains this text (or after 120 s, scaled), SIGINT is sent.
    /// - `timeout`: a bound on a hang (scaled by `TestTime`); the process is terminated after it.
    package static func run(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String],
        directory: URL? = nil,
        stdin: String? = nil,
        interruptAfter marker: String? = nil,
        timeout: Duration = .seconds(600)
    ) async throws -> ProcessOutcome {
        let process = SpawnedProcess()
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
        let signals = ChildSignals(pid: pid)
        // The SIGINT goes from the reader's own thread as soon as the marker arrives: a task
        // polling for it on the cooperative pool could be starved by CPU-bound tests running
        // beside it until the child had finished (seen: `sigintExits130` saw the whole script run).
        let stdoutReader = PipeReader(out.fileHandleForReading) { text in
            if let marker, text.contains(marker) { signals.interruptOnce() }
        }
        let stderrReader = PipeReader(err.fileHandleForReading)
        if let stdin, let input {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        let watchdog = Task {
            try? await Task.sleep(for: timeout.scaled)
            signals.send(SIGTERM)
        }
        // A marker that never comes: SIGINT after 120 s anyway.
        let fallback = Task {
            guard marker != nil else { return }
            try? await Task.sleep(for: Duration.seconds(120).scaled)
            signals.interruptOnce()
        }
        let stdoutText = await stdoutReader.finished()
        let stderrText = await stderrReader.finished()
        await offThePool {
            process.waitUntilExit()
            signals.markExited()
        }
        watchdog.cancel()
        fallback.cancel()
        return ProcessOutcome(status: process.terminationStatus, stdout: stdoutText, stderr: stderrText)
    }
}

/// Signals to one child, never after it was reaped (its pid may be reused), SIGINT at most once.
final class ChildSignals: Sendable {
    let pid: pid_t
    private let state = Mutex((exited: false, interrupted: false))

    init(pid: pid_t) { self.pid = pid }

    func send(_ signal: Int32) {
        state.withLock { if !$0.exited { _ = kill(pid, signal) } }
    }

    func interruptOnce() {
        state.withLock { state in
            guard !state.exited, !state.interrupted else { return }
            state.interrupted = true
            _ = kill(pid, SIGINT)
        }
    }

    func markExited() { state.withLock { $0.exited = true } }
}

/// Reads a pipe to its end on a thread of its own; the text so far is readable at any time.
package final class PipeReader: Sendable {
    private final class Buffer: Sendable {
        let state = Mutex<(data: Data, finished: Bool)>((Data(), false))
    }
    private let buffer: Buffer
    private let done: AsyncStream<Void>

    /// `onText`: called on the reading thread with the text so far after each chunk. The thread
    /// starts at once (not from a task, which a saturated pool could hold back).
    package init(_ handle: FileHandle, onText: (@Sendable (String) -> Void)? = nil) {
        let buffer = Buffer()
        self.buffer = buffer
        let (done, finished) = AsyncStream<Void>.makeStream()
        self.done = done
        Thread.detachNewThread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                let text = buffer.state.withLock { state -> String? in
                    state.data.append(chunk)
                    return onText == nil ? nil : String(decoding: state.data, as: UTF8.self)
                }
                if let text { onText?(text) }
            }
            buffer.state.withLock { $0.finished = true }
            finished.finish()
        }
    }

    package var text: String { buffer.state.withLock { String(decoding: $0.data, as: UTF8.self) } }
    package var isFinished: Bool { buffer.state.withLock { $0.finished } }

    /// The whole text, once the writer closed the pipe.
    package func finished() async -> String {
        for await _ in done {}
        return text
    }
}
