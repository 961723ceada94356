import BTSLanguage
import BTSTerminal
import BTSTerminalText
import BooksTrackContract
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Collects what a command writes on stdout (for `> FILE`, `>> FILE`, `| pipeline`); stderr
/// passes through to the sink underneath.
final class CapturingSink: OutputSink, Sendable {
    private let buffer = Mutex<[UInt8]>([])
    let base: any OutputSink

    init(base: any OutputSink) {
        self.base = base
    }

    func write(_ text: String, to stream: OutputStream) {
        guard stream == .standardOutput else {
            base.write(text, to: stream)
            return
        }
        buffer.withLock { $0.append(contentsOf: text.utf8) }
    }

    var bytes: [UInt8] {
        buffer.withLock { $0 }
    }
}

/// A redirection in effect: the buffer stdout goes to and the format results are written in.
struct ActiveRedirect: Sendable {
    var sink: CapturingSink
    /// The format (``OutputFormat/forDestination(isTerminal:chosen:)``).
    var format: OutputFormat
    /// Output shaped for the terminal (colour, width), only held back (for the pager).
    var keepsTerminal = false

    /// The format for a file: `.json`, `.ndjson`/`.jsonl`, `.csv`, `.md`/`.markdown`, `.txt` (a table
    /// as plain text).
    static func format(forPath path: String) -> OutputFormat? {
        switch (path as NSString).pathExtension.lowercased() {
        case "json": return .json
        case "ndjson", "jsonl": return .ndjson
        case "csv": return .csv
        case "md", "markdown": return .markdown
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
        _ redirection: Redirection?,
        option: OutputFormat?,
        _ body: () async throws -> Void
    ) async throws {
        guard let redirection else {
            try await body()
            return
        }
        let base = state.redirect?.sink ?? sink
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
                throw ShellError(
                    .failure,
                    "cannot write '\(path)': \(String(cString: strerror(errno)))",
                    range: word.range,
                    code: .writeFailed
                )
            }
        case .pipe:
            break
        }
        defer { if descriptor >= 0 { Glibc.close(descriptor) } }
        let previous = state.redirect
        // A file or a pipeline is not a terminal: JSON unless a format was chosen (one rule).
        state.redirect = ActiveRedirect(sink: capture, format: .forDestination(isTerminal: false, chosen: chosen))
        var failure: (any Error)?
        do {
            try await body()
        } catch {
            failure = error
        }
        state.redirect = previous
        let bytes = capture.bytes
        switch redirection.kind {
        case .write, .append:
            if let problem = ShellPipeline.writeAll(bytes, to: descriptor) {
                throw ShellError(
                    .failure,
                    "cannot write '\(shownPath)': \(problem)",
                    range: redirection.range,
                    code: .writeFailed
                )
            }
            if let failure { throw failure }
        case .pipe(let pipeline):
            if let failure { throw failure }
            let inherit = previous == nil && sink is StandardOutputSink
            // A session whose output is not the process's (`bts test`'s) keeps its pipelines' stderr
            // too, and off the terminal.
            let status = try await ShellPipeline.run(
                pipeline,
                input: bytes,
                output: inherit ? nil : base,
                errors: sink is StandardOutputSink ? nil : base
            )
            if status != 0 {
                // bts's exit statuses keep their meaning (3 is the network, …): a failed pipeline is a
                // failed command (1; 130 when Ctrl-C ended it), its own status said in the message.
                throw ShellError(
                    status == 128 + SIGINT ? .interrupted : .failure,
                    "the pipeline '\(TerminalText.sanitize(pipeline, lines: .flatten))' exited with status \(status)",
                    range: redirection.range,
                    code: "PIPELINE_FAILED"
                )
            }
        }
    }
}

extension ErrorCode {
    /// Output that could not be written (a redirection, `library export`, stdout).
    package static let writeFailed: ErrorCode = "WRITE_FAILED"
    /// A `| command` pipeline that could not be started.
    static let pipelineFailed: ErrorCode = "PIPELINE_FAILED"
}
