import Hummingbird
import NIOCore

extension Response {
    /// Reads this response's body into memory, up to `limit` bytes: past that the rest is dropped
    /// and `overflowed` is set.
    consuming func collectBody(limit: Int) async throws -> CollectedBody {
        let box = CollectedBody()
        try await body.write(CollectingWriter(box: box, limit: limit))
        return box
    }
}

/// The bytes a `CollectingWriter` gathered.
final class CollectedBody: @unchecked Sendable {
    // Written by the one task writing the body, read after it finished.
    var buffer = ByteBuffer()
    var overflowed = false
}

/// Buffers a response body, bounded.
struct CollectingWriter: ResponseBodyWriter {
    let box: CollectedBody
    let limit: Int

    mutating func write(_ buffer: ByteBuffer) async throws {
        guard !box.overflowed, box.buffer.readableBytes + buffer.readableBytes <= limit else {
            box.overflowed = true
            return
        }
        box.buffer.writeImmutableBuffer(buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
