/// The base protocol's framing (LSP, JSON-RPC over a byte stream): a header of `Name: value` lines
/// ending in an empty line, `Content-Length` required, then that many bytes of JSON. Pure: bytes
/// go in as they arrive, whole messages come out; nothing here reads or writes.
package struct MessageReader: Sendable {
    /// What the stream held next.
    package enum Frame: Sendable, Equatable {
        /// A message's body (UTF-8 JSON, not yet checked).
        case message([UInt8])
        /// A header without a usable `Content-Length`: its bytes were dropped.
        case badHeader(String)
        /// A body longer than ``maxBody``: its bytes are skipped as they arrive.
        case oversized(Int)
    }

    /// The largest body read (a script is at most 1 MB; its JSON escapes can double it).
    package static let maxBody = 8 << 20
    /// The longest header kept (a real one is a few dozen bytes).
    package static let maxHeader = 8 << 10

    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes of an oversized body still to drop.
    private var skipping = 0

    package init() {}

    /// Adds bytes read from the stream.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        var rest = bytes[...]
        if skipping > 0 {
            let dropped = min(skipping, rest.count)
            skipping -= dropped
            rest = rest.dropFirst(dropped)
        }
        buffer.append(contentsOf: rest)
    }

    /// The next whole frame, or nil until more bytes arrive.
    package mutating func next() -> Frame? {
        defer { compact() }
        guard skipping == 0 else { return nil }
        guard let end = headerEnd() else {
            if buffer.count - start > Self.maxHeader {
                buffer.removeAll()
                start = 0
                return .badHeader("a header longer than \(Self.maxHeader) bytes")
            }
            return nil
        }
        let header = String(decoding: buffer[start..<end], as: UTF8.self)
        let bodyStart = end + 4
        guard let length = Self.contentLength(header) else {
            start = bodyStart
            return .badHeader("no Content-Length in the header")
        }
        if length > Self.maxBody {
            let available = min(length, buffer.count - bodyStart)
            skipping = length - available
            start = bodyStart + available
            return .oversized(length)
        }
        guard buffer.count - bodyStart >= length else { return nil }
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        start = bodyStart + length
        return .message(body)
    }

    /// The offset of the `\r\n\r\n` that ends the header starting at `start`.
    private func headerEnd() -> Int? {
        var index = start
        while index + 3 < buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }

    /// `Content-Length: N` (the name in any case), a non-negative decimal.
    static func contentLength(_ header: String) -> Int? {
        for line in header.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":"),
                line[..<colon].lowercased() == "content-length"
            else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            guard !value.isEmpty, value.count <= 12, value.allSatisfy(\.isASCII), let length = Int(value), length >= 0
            else { return nil }
            return length
        }
        return nil
    }

    private mutating func compact() {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
    }

    /// A message framed for the stream.
    package static func frame(_ body: [UInt8]) -> [UInt8] {
        Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }
}
