import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads lines from a file descriptor that is not a terminal (a pipe, a file): no prompt, no
/// editing, no history. Lines may be arbitrarily long; "\r\n" endings are accepted; a last line
/// without a newline is returned before `.eof`; invalid UTF-8 is repaired (U+FFFD).
/// Blocking reads happen on a dedicated thread.
public final class PlainLineReader: LineReader, @unchecked Sendable {
    // @unchecked: `state` is only touched on `worker`'s thread.
    private let state: PlainLineState
    private let worker: BlockingWorker
    private let isComplete: InputCompletenessCheck?

    /// Reads from `fileDescriptor` (not closed by the reader). `isComplete` joins continuation
    /// lines the same way `LineEditor` does.
    public init(fileDescriptor: Int32, isComplete: InputCompletenessCheck? = nil) {
        state = PlainLineState(fileDescriptor: fileDescriptor)
        worker = BlockingWorker(name: "bts.plain-reader")
        self.isComplete = isComplete
    }

    deinit { worker.shutdown() }

    /// Reads the next logical line; the prompt is ignored. Cancellation is checked between
    /// lines only (a blocked `read(2)` on a pipe cannot be interrupted portably).
    public func readLine(prompt: LinePrompt) async -> LineEditorResult {
        var lines: [String] = []
        while true {
            if Task.isCancelled { return .interrupted }
            let state = self.state
            guard let line = await worker.run({ state.nextLine() }) else {
                return lines.isEmpty ? .eof : .line(lines.joined(separator: "\n"))
            }
            lines.append(line)
            let joined = lines.joined(separator: "\n")
            if isComplete?(joined) ?? true { return .line(joined) }
        }
    }
}

/// Buffered line splitting over `read(2)`.
final class PlainLineState: @unchecked Sendable {
    private let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    /// Start of unconsumed bytes in `buffer`.
    private var start = 0
    /// Where to continue looking for "\n" (bytes before it have none).
    private var scanned = 0
    private var atEnd = false
    private let chunkSize = 64 * 1024

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// The next line without its terminator, or nil at end of input.
    func nextLine() -> String? {
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = newline + 1
                scanned = start
                compact()
                return line
            }
            scanned = buffer.count
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = String(decoding: buffer[start...], as: UTF8.self)
                start = buffer.count
                scanned = start
                return line
            }
            fill()
        }
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
