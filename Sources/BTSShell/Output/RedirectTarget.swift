import BTSLanguage
import BTSTerminalText
import BooksTrackContract
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where a redirection sends a command's stdout, opened before the command runs: a file
/// (`> FILE` truncates it, `>> FILE` appends; an unwritable file is an error and the command does
/// not run) or a pipeline (`| cmd`), which gets what the command printed on its stdin.
struct RedirectTarget: Sendable {
    let redirection: Redirection
    /// The format results are written in: the command's own `--output`, else the file's extension,
    /// else the setting; JSON when none chose (a file or a pipeline is not a terminal).
    let format: OutputFormat
    /// The open file's descriptor; -1 for a pipeline.
    private let descriptor: Int32
    /// The file's name as written (after interpolation), for messages.
    private let shownPath: String

    /// Opens the destination. `option` is the command's own `--output`, which wins over the
    /// file's extension; `setting` is `set output`.
    init(
        _ redirection: Redirection,
        option: OutputFormat?,
        setting: OutputFormat?,
        scope: VariableScope,
        resolvingPaths resolvePath: (String) -> URL
    ) throws(ShellError) {
        var descriptor: Int32 = -1
        var shownPath = ""
        var chosen = option ?? setting
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
        self.redirection = redirection
        self.descriptor = descriptor
        self.shownPath = shownPath
        self.format = .forDestination(isTerminal: false, chosen: chosen)
    }

    /// Closes the file, if one was opened.
    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// Hands over what the command printed: written to the file (a failed write is the error),
    /// or run through the pipeline (its stdout into `output`, or the terminal when nil; its stderr
    /// into `errors`, or bts's). `failure` is the command's own error, thrown after the file is
    /// written, or instead of running the pipeline.
    func deliver(
        _ bytes: [UInt8],
        after failure: (any Error)?,
        output: (any OutputSink)?,
        errors: (any OutputSink)?
    ) async throws {
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
            let status = try await ShellPipeline.run(pipeline, input: bytes, output: output, errors: errors)
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
