import BTSLanguage
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Collects what a command writes on stdout (for `> FILE`, `>> FILE`, `| pipeline`); stderr
/// passes through to the sink underneath.
final class CapturingSink: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var buffer: [UInt8] = []
    let base: any OutputSink

    init(base: any OutputSink) {
        self.base = base
    }

    func write(_ text: String, to stream: OutputStream) {
        guard stream == .standardOutput else {
            base.write(text, to: stream)
            return
        }
        lock.lock()
        defer { lock.unlock() }
        buffer.append(contentsOf: text.utf8)
    }

    var bytes: [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return buffer
    }
}

/// A redirection in effect: the buffer stdout goes to and the format results are written in.
struct ActiveRedirect: Sendable {
    var sink: CapturingSink
    var format: OutputFormat
    /// The format was chosen (by `--output`, the file's extension or `set output`), so text
    /// results such as `help` are written as data in it too.
    var isExplicit: Bool
    /// Output shaped for the terminal (colour, width), only held back (for the pager).
    var keepsTerminal = false

    /// The format for a file: `.json`, `.ndjson`/`.jsonl`, `.csv`, `.txt` (a table as plain text).
    static func format(forPath path: String) -> OutputFormat? {
        switch (path as NSString).pathExtension.lowercased() {
        case "json": return .json
        case "ndjson", "jsonl": return .ndjson
        case "csv": return .csv
        case "txt", "text": return .table
        default: return nil
        }
    }
}

extension Shell {
    /// Runs `body` with stdout sent where `redirection` says: a file is opened before anything
    /// runs (an unwritable file is an error and the command does not run), then written with
    /// what the command printed; a pipeline gets it on its stdin. `option` is the command's own
    /// `--output`, which wins over the file's extension.
    func withRedirection(
        _ redirection: Redirection?, option: OutputFormat?, _ body: () async throws -> Void
    ) async throws {
        guard let redirection else {
            try await body()
            return
        }
        let base = redirect?.sink ?? sink
        let capture = CapturingSink(base: base)
        var descriptor: Int32 = -1
        var shownPath = ""
        var chosen = option ?? settings.output
        switch redirection.kind {
        case .write(let word), .append(let word):
            let path: String
            switch scope.interpolate(word) {
            case .success(let text): path = text
            case .failure(let error): throw error
            }
            guard !path.isEmpty else { throw ShellError(.usage, "the file name after '>' is empty", range: word.range) }
            shownPath = path
            if option == nil, let fromExtension = ActiveRedirect.format(forPath: path) { chosen = fromExtension }
            var flags = O_WRONLY | O_CREAT | O_CLOEXEC
            if case .append = redirection.kind { flags |= O_APPEND } else { flags |= O_TRUNC }
            descriptor = Glibc.open(resolvePath(path).path, flags, 0o644)
            guard descriptor >= 0 else {
                throw ShellError(.failure, "cannot write '\(path)': \(String(cString: strerror(errno)))",
                                 range: word.range, code: "WRITE_FAILED")
            }
        case .pipe:
            break
        }
        defer { if descriptor >= 0 { Glibc.close(descriptor) } }
        let previous = redirect
        redirect = ActiveRedirect(sink: capture, format: chosen ?? .table, isExplicit: chosen != nil)
        var failure: (any Error)?
        do {
            try await body()
        } catch {
            failure = error
        }
        redirect = previous
        let bytes = capture.bytes
        switch redirection.kind {
        case .write, .append:
            if let problem = Self.writeAll(bytes, to: descriptor) {
                throw ShellError(.failure, "cannot write '\(shownPath)': \(problem)", range: redirection.range,
                                 code: "WRITE_FAILED")
            }
            if let failure { throw failure }
        case .pipe(let pipeline):
            if let failure { throw failure }
            let inherit = previous == nil && sink is StandardOutputSink
            let status = try await Self.runPipeline(pipeline, input: bytes, output: inherit ? nil : base)
            if status != 0 {
                output.note("bts: the pipeline '\(TerminalText.sanitize(pipeline, lines: .flatten))' exited with status \(status)")
                throw SilentFailure(status: status)
            }
        }
    }

    /// Writes every byte; the reason when it cannot.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            offset += written
        }
        return nil
    }

    /// Runs `/bin/sh -c pipeline` with `input` on its stdin. Its stdout goes to the terminal
    /// (`output` nil) or into `output`; its stderr is bts's. Returns its exit status (128+N when a
    /// signal ended it). Cancelling the task (Ctrl-C) terminates it.
    static func runPipeline(_ pipeline: String, input: [UInt8], output: (any OutputSink)?) async throws -> Int32 {
        _ = ignoreBrokenPipes
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", pipeline]
        let stdin = Pipe()
        process.standardInput = stdin
        let stdout = output.map { _ in Pipe() }
        if let stdout { process.standardOutput = stdout }
        let finished = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { process in
            let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus
                : process.terminationStatus
            finished.continuation.yield(status)
            finished.continuation.finish()
        }
        do {
            try process.run()
        } catch {
            throw ShellError(.failure, "cannot run /bin/sh for the pipeline", code: "PIPELINE_FAILED")
        }
        let writer = stdin.fileHandleForWriting
        let feeding = Thread {
            _ = writeAll(input, to: writer.fileDescriptor)
            try? writer.close()
        }
        feeding.start()
        let reading = Task.detached { () -> Data? in
            guard let stdout else { return nil }
            return stdout.fileHandleForReading.readDataToEndOfFile()
        }
        let status = await withTaskCancellationHandler {
            var result: Int32 = ExitStatus.interrupted.rawValue
            for await status in finished.stream { result = status }
            return result
        } onCancel: {
            process.terminate()
        }
        if let data = await reading.value, let output {
            output.write(String(decoding: data, as: UTF8.self), to: .standardOutput)
        }
        if Task.isCancelled { throw ShellError.interrupted() }
        return status
    }

    /// A pipeline that stops reading early (`head -1`) must not kill bts with SIGPIPE: writes
    /// to it fail with EPIPE instead. Set once, on the first pipeline.
    private static let ignoreBrokenPipes: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()
}
