import BTSTerminalText

/// Walks a line of a diagnostic snippet one `Character` at a time, as `for character in text`
/// does, over its UTF-8 bytes: the printed form and display columns of each character are
/// `DisplayWidth`'s, but a character of one scalar below U+0300 (or U+FFFD, what invalid bytes
/// decode to) is printed and measured from a table instead of through `Character` and the Unicode
/// property look-ups. Junk scripts are mostly such characters: rendering their diagnostics took
/// 60 % of checking them.
///
/// Two neighbouring scalars that are both below U+0300 (but not CR, which joins a following LF)
/// or U+FFFD are always a grapheme boundary (none of them is an extending mark, a prepended
/// one, a regional indicator or a Hangul jamo: Unicode's rules GB9 to GB13 never join them). Any
/// other run, from such a boundary to the next, is cut into `Character`s by the standard library
/// and measured by `DisplayWidth` as before.
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
        let count = text.count
        var index = 0
        guard count > 0 else { return }
        let table = Self.table
        var (scalar, length) = decode(text, at: index)
        while index < count {
            let next = index + length
            let (following, followingLength) = next < count ? decode(text, at: next) : (0, 0)
            if isSimple(scalar), next == count || isSimple(following) {
                if scalar >= 0x20, scalar < 0x7F, following >= 0x20, following < 0x7F, next < count {
                    // A run of printable ASCII, but for a last byte that a following scalar may join.
                    var end = next + 1
                    while end < count, text[end] >= 0x20, text[end] < 0x7F { end += 1 }
                    if end < count, text[end] >= 0x80 {
                        let (after, _) = decode(text, at: end)
                        if !isSimple(after) { end -= 1 }
                    }
                    body(.asciiRun(start: index, count: end - index), end - index)
                    index = end
                    if end < count { (scalar, length) = decode(text, at: end) }
                    continue
                }
                if scalar >= 0x20, scalar < 0x7F {
                    body(.ascii(UInt8(truncatingIfNeeded: scalar)), 1)
                } else if scalar == 0x09 {
                    body(.tab, 1)
                } else {
                    body(.simple(table[scalar < 0x300 ? Int(scalar) : 0x300]), length)
                }
                index = next
                scalar = following
                length = followingLength
                continue
            }
            // A run that may join: up to the next pair of simple scalars (a certain boundary).
            var end = next
            var previousIsSimple = isSimple(scalar)
            var current = following
            var currentLength = followingLength
            while end < count {
                let currentIsSimple = isSimple(current)
                if previousIsSimple, currentIsSimple { break }
                previousIsSimple = currentIsSimple
                end += currentLength
                if end < count { (current, currentLength) = decode(text, at: end) }
            }
            let run = String(decoding: UnsafeBufferPointer(rebasing: text[index..<end]), as: UTF8.self)
            for character in run { body(.complex(character), character.utf8.count) }
            index = end
            if end < count { (scalar, length) = (current, currentLength) }
        }
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
        return text.withUTF8 { bytes in
            var column = 0
            walk(bytes) { step, _ in column = advance(column, by: step) }
            return column
        }
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
            return ((lead & 0x07) << 18 | UInt32(text[index + 1] & 0x3F) << 12
                    | UInt32(text[index + 2] & 0x3F) << 6 | UInt32(text[index + 3] & 0x3F), 4)
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

        func append(to output: inout [UInt8]) {
            let count = Int(truncatingIfNeeded: (packed >> 32) & 0xFF)
            for index in 0..<count { output.append(UInt8(truncatingIfNeeded: packed >> (8 * UInt64(index)))) }
        }
    }

    /// Every scalar below U+0300 then U+FFFD, printed and measured once by `DisplayWidth`.
    static let table: [Printed] = (Array(0..<UInt32(0x300)) + [0xFFFD]).map { value in
        Printed(Character(Unicode.Scalar(value) ?? "\u{FFFD}"))
    }
}
