import BTSShell
import BTSTerminal
import BooksTrackContract
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The stream around a ``LanguageServer``: framed messages read from a descriptor on a thread of
/// their own (a blocking read must not hold the concurrency pool), answered in order, written to
/// another descriptor. Checks run one at a time beside the messages, not between them: a check
/// starts once the messages read before it are handled (so of several changes queued, only the
/// newest text is checked), a request is answered while a check runs, and a check's diagnostics
/// are published only if its text is still the newest. Ends at `exit`, or when the input ends (the
/// editor went away: status 1, as an `exit` without `shutdown`).
package struct LanguageServerTransport: Sendable {
    package let server: LanguageServer
    package let input: Int32
    package let output: Int32

    package init(server: LanguageServer, input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.server = server
        self.input = input
        self.output = output
    }

    /// What the loop handles next, in the order it happened.
    private enum Event: Sendable {
        /// Bytes read.
        case input([UInt8])
        /// The input ended.
        case ended
        /// The messages read before this were handled: a check may start.
        case idle
        /// A check finished.
        case checked(PendingCheck, PendingCheck.Outcome)
    }

    /// Serves until `exit` or the end of the input; the exit status.
    package func run() async -> Int32 {
        let (events, sink) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let descriptor = input
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                sink.yield(.input(Array(buffer[0..<count])))
            }
            sink.yield(.ended)
        }
        reader.name = "bts.lsp.input"
        reader.start()
        var frames = MessageReader()
        var checking = false
        var idleQueued = false
        for await event in events {
            switch event {
            case .input(let chunk):
                frames.append(chunk)
                while let frame = frames.next() {
                    let replies: [JSONValue]
                    switch frame {
                    case .message(let body): replies = await server.handle(body: body)
                    case .badHeader(let reason):
                        replies = [LanguageServer.error(id: .null, .parseError, "a message was dropped: \(reason)")]
                    case .oversized(let length):
                        replies = [
                            LanguageServer.error(
                                id: .null,
                                .invalidRequest,
                                "a message of \(length) bytes was dropped: the most is \(MessageReader.maxBody)"
                            )
                        ]
                    }
                    for reply in replies { write(reply) }
                    if let status = await server.exitStatus { return status }
                }
            case .ended:
                return await server.exitStatus ?? 1
            case .idle:
                idleQueued = false
                if !checking, let check = await server.startCheck() {
                    checking = true
                    Task { sink.yield(.checked(check, check.run())) }
                }
            case .checked(let check, let outcome):
                checking = false
                if let notification = await server.finish(check, outcome) { write(notification) }
            }
            // A check waits for the events already queued (more changes, requests) to be handled.
            if !checking, !idleQueued, await server.checkIsDue {
                idleQueued = true
                sink.yield(.idle)
            }
        }
        return await server.exitStatus ?? 1
    }

    /// Writes `message`, framed, through the one descriptor write loop. A failed write (the editor
    /// went away: SIGPIPE is ignored, so EPIPE) drops the message; the server ends when its input ends.
    private func write(_ message: JSONValue) {
        _ = DescriptorWriter.writeAll(MessageReader.frame(Array(message.compactJSON.utf8)), to: output)
    }
}
