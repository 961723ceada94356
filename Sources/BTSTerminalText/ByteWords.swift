/// Tests on 8 bytes of text at once, in a `UInt64` (first byte lowest): each answers with the high
/// bit of every byte that passes, the other bits clear. No carry crosses from one byte to the next,
/// so every answer is exact. Scanning text so makes one comparison per 8 bytes where a loop makes
/// one or two a byte (a fuzz build counts every comparison: docs/hardening.md).
package enum ByteWords {
    /// The high bit of every byte.
    @inlinable package static var high: UInt64 { 0x8080_8080_8080_8080 }
    /// 0x01 in every byte: `ones &* byte` repeats a byte 8 times.
    @inlinable package static var ones: UInt64 { 0x0101_0101_0101_0101 }

    /// The 8 bytes from `pointer` (any alignment).
    @inlinable
    package static func load(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self))
    }

    /// The first `count` (below 8) bytes from `pointer`, then bytes of `filler`.
    @inlinable
    package static func load(_ pointer: UnsafePointer<UInt8>, count: Int, filler: UInt8) -> UInt64 {
        var word = ones &* UInt64(filler)
        withUnsafeMutableBytes(of: &word) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: count)) }
        return UInt64(littleEndian: word)
    }

    /// The bytes equal to the same byte of `other`.
    @inlinable
    package static func equal(_ word: UInt64, _ other: UInt64) -> UInt64 {
        let difference = word ^ other
        return ~(((difference & ~high) &+ ~high) | difference) & high
    }

    /// The bytes equal to `byte`.
    @inlinable
    package static func equal(_ word: UInt64, byte: UInt8) -> UInt64 {
        equal(word, ones &* UInt64(byte))
    }

    /// The bytes below 0x20 (C0 controls).
    @inlinable
    package static func controls(_ word: UInt64) -> UInt64 {
        ~((word & ~high) &+ ones &* 0x60) & ~word & high
    }

    /// The bytes that are not printable ASCII (0x20 to 0x7E): controls, DEL, 0x80 and up.
    @inlinable
    package static func nonPrintable(_ word: UInt64) -> UInt64 {
        let low = word & ~high
        return (word | (low &+ ones) | ~(low &+ ones &* 0x60)) & high
    }

    /// The index (0 to 7) of the first byte flagged in `flags` (not 0).
    @inlinable
    package static func first(_ flags: UInt64) -> Int {
        flags.trailingZeroBitCount >> 3
    }
}
