/// A physical line of a stream that is not UTF-8, as ``PlainLineReader`` found it: where it is
/// and its bytes, for the caller to place its first bad byte in a sentence (the bytes are never
/// shown; nothing is replaced with U+FFFD).
package struct UndecodableLine: Sendable, Equatable {
    /// The line's number in the stream, from 1.
    package var number: Int
    /// The offset of the line's first byte in the stream, from 0.
    package var offset: Int
    /// The line's bytes, without its line ending.
    package var bytes: [UInt8]

    package init(number: Int, offset: Int, bytes: [UInt8]) {
        self.number = number
        self.offset = offset
        self.bytes = bytes
    }
}
