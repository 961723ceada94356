import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads lines from a file descriptor that is not a terminal (a pipe, a file): no prompt, no
/// editing, no history. Lines may be arbitrarily long; "\r\n" endings are accepted; a last line
/// without a newline is returned before `.eof`; a line that is not UTF-8 is returned as
/// `.notUTF8` with its place in the stream (never repaired with U+FFFD: the caller refuses it).
/// Blocking reads happen on a dedicated thread; `cancelRead()` or cancelling the calling task
/// ends a pending read with `.interrupted` (the unread input stays buffered).
package final class PlainLineReader: LineReader, @unchecked Sendable {
    // @unchecked: `state` is only touched on `worker`'s thread.
    private let state: PlainLineState
    private let worker: BlockingWorker
    private let isComplete: InputCompletenessCheck?
    private let wakeup: EditorWakeup

    /// Reads from `fileDescriptor` (not closed by the reader). `isComplete` joins continuation
    /// lines the same way `LineEditor` does.
    package init(fileDescriptor: Int32, isComplete: InputCompletenessCheck? = nil) {
        let wakeup = EditorWakeup()
        self.wakeup = wakeup
        state = PlainLineState(fileDescriptor: fileDescriptor, wakeup: wakeup)
        worker = BlockingWorker(name: "bts.plain-reader")
        self.isComplete = isComplete
    }

    deinit { worker.shutdown() }

    /// Reads the next logical line; the prompt is ignored.
    package func readLine(prompt: LinePrompt) async -> LineEditorResult {
        let state = self.state
        let worker = self.worker
        return await LogicalLineAssembler.read(wakeup: wakeup, isComplete: isComplete) { _, sequence in
            switch await worker.run({ state.nextLine(sequence: sequence) }) {
            case .line(let line): return .line(line)
            case .end: return .end
            case .interrupted: return .interrupted
            case .notUTF8(let line): return .notUTF8(line)
            }
        }
    }

    package func cancelRead() {
        wakeup.abortCurrentOrNext()
    }

    /// No terminal, nothing to restore.
    package func restoreTerminal() {}
}

/// Buffered line splitting over `read(2)`.
final class PlainLineState: @unchecked Sendable {
    private let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    /// Start of unconsumed bytes in `buffer`.
    private var start = 0
    /// Where to continue looking for "\n" (bytes before it have none).
    private var scanned = 0
    /// The number of the line that starts at `start`, and the offset of `start` in the stream.
    private var lineNumber = 1
    private var streamOffset = 0
    private var atEnd = false
    private let chunkSize = 64 * 1024
    private let wakeup: EditorWakeup?

    enum Outcome: Sendable, Equatable {
        case line(String)
        case end, interrupted
        case notUTF8(UndecodableLine)
    }

    init(fileDescriptor: Int32, wakeup: EditorWakeup? = nil) {
        self.fileDescriptor = fileDescriptor
        self.wakeup = wakeup
    }

    /// The next line, unless the read with `sequence` is aborted while waiting for input.
    func nextLine(sequence: UInt64) -> Outcome {
        while true {
            if let line = bufferedLine() { return line }
            if atEnd { return .end }
            if let wakeup, wakeup.isAborted(sequence: sequence) { return .interrupted }
            guard waitForInput(sequence: sequence) else { return .interrupted }
            fill()
        }
    }

    /// Waits until the descriptor is readable (true) or the read is aborted (false).
    private func waitForInput(sequence: UInt64) -> Bool {
        guard let wakeup, wakeup.readFD >= 0 else { return true }
        while true {
            var fds = [
                pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeup.readFD, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return true  // let read(2) report the problem
            }
            if fds[1].revents != 0 {
                wakeup.drain()
                if wakeup.isAborted(sequence: sequence) { return false }
            }
            if fds[0].revents != 0 { return true }
        }
    }

    /// A complete line from the buffer, or the unterminated rest at end of input, or nil.
    private func bufferedLine() -> Outcome? {
        if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
            var end = newline
            if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = take(start..<end, through: newline + 1)
            compact()
            return line
        }
        scanned = buffer.count
        if atEnd, start < buffer.count { return take(start..<buffer.count, through: buffer.count) }
        return nil
    }

    /// The line in `bytes` (or why it is not one), consuming the buffer up to `next`.
    private func take(_ bytes: Range<Int>, through next: Int) -> Outcome {
        let line: Outcome =
            String(validating: buffer[bytes], as: UTF8.self).map { .line($0) }
            ?? .notUTF8(UndecodableLine(number: lineNumber, offset: streamOffset, bytes: Array(buffer[bytes])))
        lineNumber += 1
        streamOffset += next - start
        start = next
        scanned = start
        return line
    }

    private func fill() {
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, chunkSize) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN {
                var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, -1)
                continue
            }
            atEnd = true
            return
        }
    }

    /// Drops consumed bytes once they dominate the buffer.
    private func compact() {
        guard start > chunkSize, start * 2 > buffer.count else { return }
        buffer.removeSubrange(0..<start)
        scanned -= start
        start = 0
    }
}
