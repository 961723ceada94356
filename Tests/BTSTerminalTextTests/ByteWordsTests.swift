import BTSTerminalText
import TestSupport
import Testing

/// `ByteWords` answers for each of 8 bytes on its own: every byte value at every position, among
/// neighbours that would carry or borrow into it if the arithmetic leaked between bytes.
@Suite(.onWorkThreads) struct ByteWordsTests {
    static func expected(_ bytes: [UInt8], _ test: (UInt8) -> Bool) -> UInt64 {
        bytes.enumerated().reduce(0) { flags, item in
            test(item.element) ? flags | 0x80 << (8 * UInt64(item.offset)) : flags
        }
    }

    @Test func everyByteAtEveryPosition() {
        for neighbour in [0x00, 0x01, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0xC2, 0xFF] as [UInt8] {
            for value in UInt8(0)...UInt8(255) {
                for position in 0..<8 {
                    var bytes = [UInt8](repeating: neighbour, count: 8)
                    bytes[position] = value
                    let word = bytes.withUnsafeBufferPointer { ByteWords.load($0.baseAddress!) }
                    #expect(ByteWords.equal(word, byte: value) == Self.expected(bytes) { $0 == value })
                    #expect(ByteWords.equal(word, byte: 0x0A) == Self.expected(bytes) { $0 == 0x0A })
                    #expect(ByteWords.controls(word) == Self.expected(bytes) { $0 < 0x20 }, "\(bytes)")
                    #expect(
                        ByteWords.nonPrintable(word) == Self.expected(bytes) { !(0x20..<0x7F).contains($0) },
                        "\(bytes)"
                    )
                }
            }
        }
    }

    @Test func aShortLoadIsPaddedWithTheFiller() {
        let bytes: [UInt8] = [1, 2, 3, 4, 5, 6, 7]
        for count in 0..<8 {
            let word = bytes.withUnsafeBufferPointer { ByteWords.load($0.baseAddress!, count: count, filler: 0xAB) }
            let expected = (0..<8).reduce(UInt64(0)) { word, index in
                word | UInt64(index < count ? bytes[index] : 0xAB) << (8 * UInt64(index))
            }
            #expect(word == expected)
            #expect(ByteWords.first(ByteWords.equal(word, byte: 0xAB)) == count)
        }
    }
}
