import BTSTerminalText

/// Walks a line of a diagnostic snippet one `Character` at a time, as `for character in text`
/// does, over its UTF-8 bytes: the printed form and display columns of each character are
/// `DisplayWidth`'s, but a character of one scalar below U+0300 (or U+FFFD, what invalid bytes
/// decode to) is printed and measured from a table instead of through `Character` and the Unicode
/// property look-ups. Junk scripts are mostly such characters, and rendering their diagnostics is
/// most of checking them.
///
/// Two neighbouring scalars that are both below U+0300 (but not CR, which joins a following LF)
/// or U+FFFD are always a grapheme boundary (none of them is an extending mark, a prepended
/// one, a regional indicator or a Hangul jamo: Unicode's rules GB9 to GB13 never join them). Any
/// other run, from such a boundary to the next, is cut into `Character`s by the standard library
/// and measured by `DisplayWidth`.
///
/// Runs of printable ASCII are found 8 bytes at a time, and whether a scalar is simple is read
/// from its first byte: the fuzz build counts every comparison (see docs/hardening.md).
enum DisplayColumns {
    /// What one walked character is: its UTF-8 length in the walked text comes with it.
    enum Step {
        /// Printable ASCII: printed as itself, one column.
        case ascii(UInt8)
        /// Two or more printable ASCII characters in a row, each printed as itself in one column:
        /// `count` bytes from `start` of the walked text (the length passed with it is `count`).
        case asciiRun(start: Int, count: Int)
        /// A tab: to the next tab stop.
        case tab
        /// A character of one scalar below U+0300 or U+FFFD, other than printable ASCII and tab:
        /// printed and measured from `table`.
        case simple(Printed)
        /// Any other character.
        case complex(Character)
    }

    /// Walks `text` (valid UTF-8, as a `String`'s bytes are), calling `body` with each character
    /// and its UTF-8 length.
    static func walk(_ text: UnsafeBufferPointer<UInt8>, _ body: (Step, Int) -> Void) {
        guard let base = text.baseAddress else { return }
        leadKinds.withUnsafeBufferPointer { kinds in
            table.withUnsafeBufferPointer { printed in
                walk(base, count: text.count, kinds: kinds, printed: printed, body)
            }
        }
    }

    @inline(__always)
    private static func walk(
        _ base: UnsafePointer<UInt8>,
        count: Int,
        kinds: UnsafeBufferPointer<UInt8>,
        printed: UnsafeBufferPointer<Printed>,
        _ body: (Step, Int) -> Void
    ) {
        var index = 0
        while index < count {
            let lead = base[index]
            let kind = kinds[Int(lead)]
            var joinsFrom = index
            if kind == LeadKind.printable {
                // A run of printable ASCII, but for a last byte that a following scalar may join.
                let runEnd = printableEnd(base, from: index + 1, count: count)
                var end = runEnd
                if end < count, base[end] >= 0x80, !startsSimple(base, at: end, count: count, kinds: kinds) { end -= 1 }
                if end - index > 1 {
                    body(.asciiRun(start: index, count: end - index), end - index)
                } else if end > index {
                    body(.ascii(lead), 1)
                }
                index = end
                if end == runEnd { continue }
                joinsFrom = end
            } else {
                let length = Int(kind & LeadKind.lengthMask)
                let next = index + length
                if next <= count, kind & LeadKind.simple != 0 || isReplacement(base, at: index, count: count),
                    next == count || startsSimple(base, at: next, count: count, kinds: kinds)
                {
                    if lead == 0x09 {
                        body(.tab, 1)
                    } else {
                        // (Below U+0300 the scalar is its table index; U+FFFD's is 0x300.)
                        let scalar =
                            length == 1
                            ? Int(lead) : (length == 2 ? Int(lead & 0x1F) << 6 | Int(base[index + 1] & 0x3F) : 0x300)
                        body(.simple(printed[scalar]), length)
                    }
                    index = next
                    continue
                }
            }
            index = joiningRun(base, from: joinsFrom, count: count, body)
        }
    }

    /// A run that may join, from `start`: up to the next pair of simple scalars (a certain
    /// boundary), cut into `Character`s by the standard library. Returns where it ends.
    private static func joiningRun(
        _ base: UnsafePointer<UInt8>,
        from start: Int,
        count: Int,
        _ body: (Step, Int) -> Void
    ) -> Int {
        let text = UnsafeBufferPointer(start: base, count: count)
        var (scalar, length) = decode(text, at: start)
        var end = start + length
        var previousIsSimple = isSimple(scalar)
        while end < count {
            (scalar, length) = decode(text, at: end)
            let currentIsSimple = isSimple(scalar)
            if previousIsSimple, currentIsSimple { break }
            previousIsSimple = currentIsSimple
            end += length
        }
        let run = String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
        for character in run { body(.complex(character), character.utf8.count) }
        return end
    }

    /// What a byte says of the scalar it starts: its UTF-8 length (low bits), whether it is
    /// printable ASCII, and whether the scalar is simple (below U+0300, not CR). U+FFFD, the one
    /// simple scalar of 3 bytes, is told by `isReplacement`.
    enum LeadKind {
        static let lengthMask: UInt8 = 0x07
        static let simple: UInt8 = 0x10
        static let printable: UInt8 = 0x20 | 0x10 | 1
    }

    /// `LeadKind` of every byte, from `isSimple` (a continuation byte, never a scalar's first in
    /// valid UTF-8, is taken as a scalar of one byte that is not simple).
    static let leadKinds: [UInt8] = (0...255).map { (byte: Int) -> UInt8 in
        let value = UInt32(byte)
        switch byte {
        case 0x20..<0x7F: return LeadKind.printable
        case 0..<0x80: return (isSimple(value) ? LeadKind.simple : 0) | 1
        // Simple when the last scalar of two bytes it starts is (then all are: U+0000 to U+02FF).
        case 0xC0..<0xE0: return (isSimple((value & 0x1F) << 6 | 0x3F) ? LeadKind.simple : 0) | 2
        case 0xE0..<0xF0: return 3
        case 0xF0...: return 4
        default: return 1
        }
    }

    /// Whether the scalar starting at `index` (< `count`) is simple.
    @inline(__always)
    static func startsSimple(
        _ base: UnsafePointer<UInt8>,
        at index: Int,
        count: Int,
        kinds: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        kinds[Int(base[index])] & LeadKind.simple != 0 || isReplacement(base, at: index, count: count)
    }

    /// Whether U+FFFD (EF BF BD) starts at `index` (< `count`).
    @inline(__always)
    static func isReplacement(_ base: UnsafePointer<UInt8>, at index: Int, count: Int) -> Bool {
        base[index] == 0xEF && index + 2 < count && base[index + 1] == 0xBF && base[index + 2] == 0xBD
    }

    /// The first position from `start` on (up to `count`) that is not printable ASCII, found 8
    /// bytes at a time.
    @inline(__always)
    static func printableEnd(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        var index = start
        while index < count {
            // (Past the end, a control: the end.)
            let word =
                count - index >= 8
                ? ByteWords.load(base + index) : ByteWords.load(base + index, count: count - index, filler: 0)
            let stray = ByteWords.nonPrintable(word)
            if stray != 0 { return index + ByteWords.first(stray) }
            index += 8
        }
        return count
    }

    /// The display column after `step` printed at `column` (`DisplayWidth.advance`).
    static func advance(_ column: Int, by step: Step) -> Int {
        switch step {
        case .ascii: return column + 1
        case .asciiRun(_, let count): return column + count
        case .tab: return (column / DisplayWidth.tabWidth + 1) * DisplayWidth.tabWidth
        case .simple(let printed): return column + printed.width
        case .complex(let character): return DisplayWidth.advance(column, by: character)
        }
    }

    /// The display width of `text` from column 0 (`DisplayWidth.of`).
    static func width(of text: String) -> Int {
        var text = text
        return text.withUTF8 { width(of: $0) }
    }

    /// The display width of valid UTF-8 from column 0 (`DisplayWidth.of`).
    static func width(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var column = 0
        walk(bytes) { step, _ in column = advance(column, by: step) }
        return column
    }

    /// Whether a scalar never joins a neighbour that is also simple (see the type's note).
    @inline(__always)
    static func isSimple(_ scalar: UInt32) -> Bool {
        (scalar < 0x300 && scalar != 0x0D) || scalar == 0xFFFD
    }

    /// The scalar at `index` of valid UTF-8 and its length in bytes.
    @inline(__always)
    static func decode(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
        let lead = UInt32(text[index])
        if lead < 0x80 { return (lead, 1) }
        let remaining = text.count - index
        if lead < 0xE0, remaining >= 2 {
            return ((lead & 0x1F) << 6 | UInt32(text[index + 1] & 0x3F), 2)
        }
        if lead < 0xF0, remaining >= 3 {
            return ((lead & 0x0F) << 12 | UInt32(text[index + 1] & 0x3F) << 6 | UInt32(text[index + 2] & 0x3F), 3)
        }
        if remaining >= 4 {
            return (
                (lead & 0x07) << 18 | UInt32(text[index + 1] & 0x3F) << 12
                    | UInt32(text[index + 2] & 0x3F) << 6 | UInt32(text[index + 3] & 0x3F), 4
            )
        }
        // Not valid UTF-8 (a String's bytes always are): one byte, never simple.
        return (0x110000, 1)
    }

    /// How a simple scalar is printed and how wide it is, packed: its printed form's UTF-8 bytes
    /// (at most 4: `printable` replaces a scalar by one scalar) in the low 32 bits, their count in
    /// bits 32 to 39, the width in bits 40 to 47.
    struct Printed: Sendable {
        let packed: UInt64

        init(_ character: Character) {
            let bytes = Array(DisplayWidth.printable(character).utf8.prefix(4))
            var packed: UInt64 = 0
            for (index, byte) in bytes.enumerated() { packed |= UInt64(byte) << (8 * UInt64(index)) }
            packed |= UInt64(bytes.count) << 32
            let width = character == "\t" ? 0 : DisplayWidth.advance(0, by: character)
            self.packed = packed | UInt64(min(width, 255)) << 40
        }

        var width: Int { Int(truncatingIfNeeded: (packed >> 40) & 0xFF) }

        /// The printed form's length in bytes.
        var count: Int { Int(truncatingIfNeeded: (packed >> 32) & 0xFF) }

        func append(to output: inout [UInt8]) {
            for index in 0..<count { output.append(UInt8(truncatingIfNeeded: packed >> (8 * UInt64(index)))) }
        }

        /// Stores the printed form at `output` (which has room for 4 bytes) and returns its length.
        @inline(__always)
        func store(at output: UnsafeMutableRawPointer) -> Int {
            output.storeBytes(of: UInt32(truncatingIfNeeded: packed).littleEndian, as: UInt32.self)
            return count
        }
    }

    /// Every scalar below U+0300 then U+FFFD, printed and measured once by `DisplayWidth`.
    static let table: [Printed] = (Array(0..<UInt32(0x300)) + [0xFFFD]).map { value in
        Printed(Character(Unicode.Scalar(value) ?? "\u{FFFD}"))
    }
}
