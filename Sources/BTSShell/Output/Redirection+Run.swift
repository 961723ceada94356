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
    /// Runs `body` with stdout sent where `redirection` says (``RedirectTarget``): the file is
    /// opened before anything runs, and gets what the command printed once it ends; a pipeline
    /// gets it on its stdin. `option` is the command's own `--output`.
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
        let target = try RedirectTarget(
            redirection,
            option: option,
            setting: settings.output,
            scope: scope,
            resolvingPaths: resolvePath
        )
        defer { target.close() }
        let previous = state.redirect
        state.redirect = ActiveRedirect(sink: capture, format: target.format)
        var failure: (any Error)?
        do {
            try await body()
        } catch {
            failure = error
        }
        state.redirect = previous
        // A session whose output is not the process's (`bts test`'s) keeps its pipelines' stderr
        // too, and off the terminal.
        let inherit = previous == nil && sink is StandardOutputSink
        try await target.deliver(
            capture.bytes,
            after: failure,
            output: inherit ? nil : base,
            errors: sink is StandardOutputSink ? nil : base
        )
    }
}

extension ErrorCode {
    /// Output that could not be written (a redirection, `library export`, stdout).
    package static let writeFailed: ErrorCode = "WRITE_FAILED"
    /// A `| command` pipeline that could not be started.
    static let pipelineFailed: ErrorCode = "PIPELINE_FAILED"
}
