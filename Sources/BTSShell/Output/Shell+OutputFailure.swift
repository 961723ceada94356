import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Standard output that cannot be written (`bts … > /dev/full`, a full disk) fails the run: the
/// script stops at the next command, one sentence says why, the status is 1 (not 0 with an empty
/// file). A reader that went away (EPIPE: `bts script | head -1`) ends it quietly with
/// 141, as SIGPIPE would have.
extension Shell {
    /// Whether the run must stop: standard output failed.
    var outputFailed: Bool { sink.outputFailure != nil }

    /// The run's final status once standard output is accounted for.
    package func settleOutput(_ status: Int32) -> Int32 {
        guard let code = sink.outputFailure else { return status }
        if code == EPIPE { return 128 + SIGPIPE }
        report(
            ShellError(.failure, "cannot write the output: \(String(cString: strerror(code)))", code: .writeFailed),
            in: nil,
            interactive: false
        )
        return status == 0 ? ExitStatus.failure.rawValue : status
    }
}
