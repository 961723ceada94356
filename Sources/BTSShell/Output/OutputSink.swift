import BTSTerminal
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The two output streams of the shell: data on stdout, human messages on stderr.
package enum OutputStream: Sendable, Hashable {
    case standardOutput
    case standardError
}

/// Where the shell writes. The process uses ``StandardOutputSink``; tests use ``BufferOutputSink``.
package protocol OutputSink: Sendable {
    func write(_ text: String, to stream: OutputStream)
    /// The errno of the first write to standard output that failed (nil: none did).
    var outputFailure: Int32? { get }
}

extension OutputSink {
    package var outputFailure: Int32? { nil }
}

/// Writes straight to file descriptors 1 and 2 (unbuffered, so stdout and stderr interleave in order).
package struct StandardOutputSink: OutputSink {
    /// Descriptor 1 is the process's: its first failure, whichever sink wrote.
    private static let firstFailure = Mutex<Int32?>(nil)

    package init() {}

    package func write(_ text: String, to stream: OutputStream) {
        let descriptor = stream == .standardOutput ? STDOUT_FILENO : STDERR_FILENO
        let failure = DescriptorWriter.writeAll(Array(text.utf8), to: descriptor)
        if let failure, stream == .standardOutput {
            Self.firstFailure.withLock { if $0 == nil { $0 = failure } }
        }
    }

    package var outputFailure: Int32? { Self.firstFailure.withLock { $0 } }
}

/// Collects output in memory (tests, captured runs).
package final class BufferOutputSink: OutputSink, Sendable {
    private struct State {
        var out = ""
        var err = ""
    }

    private let state = Mutex(State())

    package init() {}

    package func write(_ text: String, to stream: OutputStream) {
        state.withLock { state in
            if stream == .standardOutput { state.out += text } else { state.err += text }
        }
    }

    /// Everything written to stdout so far.
    package var standardOutput: String {
        state.withLock { $0.out }
    }

    /// Everything written to stderr so far.
    package var standardError: String {
        state.withLock { $0.err }
    }

    /// Forgets what was written.
    package func reset() {
        state.withLock { $0 = State() }
    }
}
