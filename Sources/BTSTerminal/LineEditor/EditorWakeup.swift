import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Wakes the editor thread while it waits for a key: a self-pipe polled together with the
/// terminal, plus the reason. Thread-safe; `post` may be called from any thread.
final class EditorWakeup: @unchecked Sendable {
    // @unchecked: `pending` is guarded by `lock`; the fds never change after init.
    enum Reason: Sendable, Equatable {
        /// End the read with `sequence` (cancellation, `cancelRead()`).
        case abort(sequence: UInt64)
        /// The terminal changed size.
        case resize
    }

    private let lock = NSLock()
    private var abortSequence: UInt64?
    private var resizePending = false
    private var sequence: UInt64 = 0
    private var reading = false
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
        lock.lock()
        switch reason {
        case .abort(let sequence): post(abortOf: sequence)
        case .resize: resizePending = true
        }
        lock.unlock()
        poke()
    }

    /// Records an abort (caller holds `lock`).
    private func post(abortOf target: UInt64) {
        abortSequence = max(abortSequence ?? 0, target)
    }

    /// Wakes a poll on `readFD`.
    private func poke() {
        var byte: UInt8 = 1
        if writeFD >= 0 { _ = write(writeFD, &byte, 1) }
    }

    /// Starts a read: allocates and returns its sequence number.
    func beginRead() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        sequence += 1
        reading = true
        return sequence
    }

    /// Marks the read started by `beginRead` as finished.
    func endRead() {
        lock.lock()
        reading = false
        lock.unlock()
    }

    /// Aborts the read in progress, or the next one when none is in progress.
    func abortCurrentOrNext() {
        lock.lock()
        post(abortOf: reading ? sequence : sequence + 1)
        lock.unlock()
        poke()
    }

    /// True when an abort for `sequence` (or a later one) was posted.
    func isAborted(sequence: UInt64) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return (abortSequence ?? 0) >= sequence && abortSequence != nil
    }

    /// Returns and clears the pending resize flag.
    func takeResize() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let pending = resizePending
        resizePending = false
        return pending
    }

    /// Empties the pipe (called by the editor thread after poll reports it readable).
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while readFD >= 0, read(readFD, &buffer, buffer.count) > 0 {}
    }
}
