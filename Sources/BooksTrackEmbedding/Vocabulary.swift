import Foundation

/// A WordPiece vocabulary (`vocab.txt`: one token a line, id = line number, the first of a repeated
/// token wins) as an open-addressing hash table over the file's bytes: no String is made per token,
/// which as a `[String: Int32]` would be a large share of a one-shot `semantic`.
struct Vocabulary: Sendable {
    private let bytes: [UInt8]
    /// Line `i` is `bytes[starts[i] ..< starts[i] + lengths[i]]` (a trailing `\r` left out).
    private let starts: [Int32]
    private let lengths: [Int32]
    /// Line numbers by hash, -1 where empty; the size is a power of two at least twice the lines.
    private let slots: [Int32]

    /// The longest line's length in bytes (a `\r` before its `\n` counted).
    let longestLine: Int

    init(bytes: [UInt8]) {
        var starts: [Int32] = []
        var lengths: [Int32] = []
        starts.reserveCapacity(bytes.count / 6)
        lengths.reserveCapacity(bytes.count / 6)
        var size = 16
        var longest = 0
        let slots = bytes.withUnsafeBufferPointer { text -> [Int32] in
            // Lines found with memchr (vectorised), much faster than a byte-by-byte walk.
            guard let base = text.baseAddress else {  // no bytes: one empty line
                starts.append(0)
                lengths.append(0)
                return [Int32](repeating: -1, count: size)
            }
            var start = 0
            while true {
                let rest = text.count - start
                let newline = rest > 0 ? memchr(base + start, 0x0A, rest) : nil
                let index = newline.map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) } ?? text.count
                var end = index
                if end > start, text[end - 1] == 0x0D { end -= 1 }
                starts.append(Int32(start))
                lengths.append(Int32(end - start))
                longest = max(longest, index - start)
                guard newline != nil else { break }
                start = index + 1
            }
            while size < 2 * starts.count { size <<= 1 }
            var slots = [Int32](repeating: -1, count: size)
            starts.withUnsafeBufferPointer { starts in
                lengths.withUnsafeBufferPointer { lengths in
                    slots.withUnsafeMutableBufferPointer { slots in
                        for line in starts.indices where lengths[line] > 0 {
                            let token = UnsafeBufferPointer(
                                rebasing: text[Int(starts[line])..<Int(starts[line] + lengths[line])]
                            )
                            var slot = Self.hash(token) & (size - 1)
                            while slots[slot] >= 0 {
                                let other = Int(slots[slot])
                                if UnsafeBufferPointer(
                                    rebasing: text[Int(starts[other])..<Int(starts[other] + lengths[other])]
                                )
                                .elementsEqual(token) {
                                    break
                                }
                                slot = (slot + 1) & (size - 1)
                            }
                            if slots[slot] < 0 { slots[slot] = Int32(line) }
                        }
                    }
                }
            }
            return slots
        }
        self.bytes = bytes
        self.starts = starts
        self.lengths = lengths
        self.slots = slots
        longestLine = longest
    }

    /// The id of the token with these UTF-8 bytes.
    func id<Token: Collection<UInt8>>(_ token: Token) -> Int32? {
        guard !token.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = Self.hash(token) & mask
        while slots[slot] >= 0 {
            let line = Int(slots[slot])
            if bytes[Int(starts[line])..<Int(starts[line] + lengths[line])].elementsEqual(token) { return Int32(line) }
            slot = (slot + 1) & mask
        }
        return nil
    }

    func id(_ token: String) -> Int32? { id(Array(token.utf8)) }

    /// FNV-1a (64-bit) of the bytes, as a non-negative Int.
    static func hash<Token: Collection<UInt8>>(_ token: Token) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in token { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return Int(truncatingIfNeeded: h & 0x7fff_ffff_ffff_ffff)
    }
}
