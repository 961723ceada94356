import BTSShell
import Synchronization

/// What a test file's session writes, both streams kept for the reports (each up to
/// `CapturedText.limit` bytes): its own output and messages, and its pipelines' stderr (a session
/// whose sink is not the process's gives its pipelines a pipe for stderr: ``ShellPipeline``).
/// Nothing reaches the terminal from here.
final class TestOutputSink: OutputSink {
    private let captured = Mutex<(out: CapturedText, err: CapturedText)>((CapturedText(), CapturedText()))

    func write(_ text: String, to stream: OutputStream) {
        captured.withLock { state in
            switch stream {
            case .standardOutput: state.out.append(text)
            case .standardError: state.err.append(text)
            }
        }
    }

    /// The stdout kept, with a last line saying how much was cut.
    var standardOutput: String { captured.withLock { $0.out.text } }

    /// The stderr kept, with a last line saying how much was cut.
    var standardError: String { captured.withLock { $0.err.text } }
}
