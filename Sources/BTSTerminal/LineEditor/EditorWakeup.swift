import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Wakes the editor thread while it waits for a key: a self-pipe polled together with the
/// terminal, plus the reason. Thread-safe; `post` may be called from any thread.
final class EditorWakeup: Sendable {
    enum Reason: Sendable, Equatable {
        /// End the read with `sequence` (cancellation, `cancelRead()`).
        case abort(sequence: UInt64)
        /// The terminal changed size.
        case resize
    }

    private struct State {
        var abortSequence: UInt64?
        var resizePending = false
        var sequence: UInt64 = 0
        var reading = false

        /// Records an abort.
        mutating func post(abortOf target: UInt64) {
            abortSequence = max(abortSequence ?? 0, target)
        }
    }

    private let state = Mutex(State())
    let readFD: Int32
    private let writeFD: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        } else {
            fds = [-1, -1]
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        if readFD >= 0 { close(readFD) }
        if writeFD >= 0 { close(writeFD) }
    }

    func post(_ reason: Reason) {
        state.withLock { state in
            switch reason {
            case .abort(let sequence): state.post(abortOf: sequence)
            case .resize: state.resizePending = true
            }
        }
        poke()
    }

    /// Wakes a poll on `readFD`.
    private func poke() {
        var byte: UInt8 = 1
        if writeFD >= 0 { _ = write(writeFD, &byte, 1) }
    }

    /// Starts a read: allocates and returns its sequence number.
    func beginRead() -> UInt64 {
        state.withLock { state in
            state.sequence += 1
            state.reading = true
            return state.sequence
        }
    }

    /// Marks the read started by `beginRead` as finished.
    func endRead() {
        state.withLock { $0.reading = false }
    }

    /// Aborts the read in progress, or the next one when none is in progress.
    func abortCurrentOrNext() {
        state.withLock { state in state.post(abortOf: state.reading ? state.sequence : state.sequence + 1) }
        poke()
    }

    /// True when an abort for `sequence` (or a later one) was posted.
    func isAborted(sequence: UInt64) -> Bool {
        state.withLock { state in (state.abortSequence ?? 0) >= sequence && state.abortSequence != nil }
    }

    /// Returns and clears the pending resize flag.
    func takeResize() -> Bool {
        state.withLock { state in
            let pending = state.resizePending
            state.resizePending = false
            return pending
        }
    }

    /// Empties the pipe (called by the editor thread after poll reports it readable).
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while readFD >= 0, read(readFD, &buffer, buffer.count) > 0 {}
    }
}
