import BTSShell
import BooksTrackContract
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The stream around a ``LanguageServer``: framed messages read from a descriptor on a thread of
/// their own (a blocking read must not hold the concurrency pool), answered in order, written to
/// another descriptor. Ends at `exit`, or when the input ends (the editor went away: status 1, as
/// an `exit` without `shutdown`).
public struct LanguageServerTransport: Sendable {
    public let server: LanguageServer
    public let input: Int32
    public let output: Int32

    public init(server: LanguageServer, input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.server = server
        self.input = input
        self.output = output
    }

    /// Serves until `exit` or the end of the input; the exit status.
    public func run() async -> Int32 {
        let (chunks, sink) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .unbounded)
        let descriptor = input
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                sink.yield(Array(buffer[0..<count]))
            }
            sink.finish()
        }
        reader.name = "bts.lsp.input"
        reader.start()
        var frames = MessageReader()
        for await chunk in chunks {
            frames.append(chunk)
            while let frame = frames.next() {
                let replies: [JSONValue]
                switch frame {
                case .message(let body): replies = await server.handle(body: body)
                case .badHeader(let reason):
                    replies = [LanguageServer.error(id: .null, .parseError, "a message was dropped: \(reason)")]
                case .oversized(let length):
                    replies = [LanguageServer.error(id: .null, .invalidRequest,
                                                    "a message of \(length) bytes was dropped: the most is \(MessageReader.maxBody)")]
                }
                for reply in replies { write(reply) }
                if let status = await server.exitStatus { return status }
            }
        }
        return await server.exitStatus ?? 1
    }

    private func write(_ message: JSONValue) {
        var bytes = MessageReader.frame(Array(message.compactJSON.utf8))[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
