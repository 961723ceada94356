/// The one writer of JSON string literals: the server's bodies, the shell's JSON output and the
/// strings of `bts test`'s TAP report all escape through it.
///
/// A literal always escapes what JSON requires: `\"`, `\\`, `\n`, `\r`, `\t` and every other C0
/// control as `\u00xx` (lowercase hex). An ``Escaping`` adds the rest: `\b` and `\f` as the
/// contract's encoder writes them, and the scalars its reader must not meet raw (a terminal's
/// controls, what YAML does not print), as `\uxxxx`. Everything else is written as it is (UTF-8).
package enum JSONString {
    /// What a literal escapes beyond what JSON requires.
    package struct Escaping: Sendable {
        /// Backspace and form feed as `\b` and `\f` (as Foundation's `JSONEncoder` writes them);
        /// otherwise as `\u0008` and `\u000c`.
        package var shortBackspaceAndFormFeed: Bool
        /// The scalars from U+007F up also written as `\uxxxx` (a surrogate pair past U+FFFF); nil:
        /// none. Printable ASCII is never asked about.
        package var alsoEscaped: (@Sendable (Unicode.Scalar) -> Bool)?

        package init(shortBackspaceAndFormFeed: Bool, alsoEscaped: (@Sendable (Unicode.Scalar) -> Bool)?) {
            self.shortBackspaceAndFormFeed = shortBackspaceAndFormFeed
            self.alsoEscaped = alsoEscaped
        }

        /// As the contract's encoder writes a string: what JSON requires, backspace and form feed
        /// short, everything else as it is.
        package static let contract = Escaping(shortBackspaceAndFormFeed: true, alsoEscaped: nil)
    }

    /// Writes `text` as a literal, quotes included, in pieces to `sink` (runs of the text's own
    /// UTF-8 between escapes, and the escapes).
    package static func write(_ text: String, _ escaping: Escaping, to sink: (UnsafeRawBufferPointer) -> Void) {
        emit(#"""#, sink)
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                let escape: Escape?
                switch byte {
                case UInt8(ascii: "\""): escape = .text(#"\""#)
                case UInt8(ascii: "\\"): escape = .text(#"\\"#)
                case 0x0A: escape = .text(#"\n"#)
                case 0x0D: escape = .text(#"\r"#)
                case 0x09: escape = .text(#"\t"#)
                case 0x08 where escaping.shortBackspaceAndFormFeed: escape = .text(#"\b"#)
                case 0x0C where escaping.shortBackspaceAndFormFeed: escape = .text(#"\f"#)
                case ..<0x20: escape = .unicode(UInt32(byte))
                case 0x20..<0x7F: escape = nil
                default:
                    if let alsoEscaped = escaping.alsoEscaped,
                        let scalar = Unicode.Scalar(Self.scalarValue(bytes, at: index, length: length)),
                        alsoEscaped(scalar)
                    {
                        escape = .unicode(scalar.value)
                    } else {
                        escape = nil
                    }
                }
                if let escape {
                    sink(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[runStart..<index]))
                    escape.write(to: sink)
                    runStart = index + length
                }
                index += length
            }
            sink(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[runStart...]))
        }
        emit(#"""#, sink)
    }

    /// Appends `text` as a literal to `output`.
    package static func append(_ text: String, _ escaping: Escaping, to output: inout [UInt8]) {
        write(text, escaping) { output.append(contentsOf: $0) }
    }

    /// `text` as a literal.
    package static func literal(_ text: String, _ escaping: Escaping) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 2)
        append(text, escaping, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static func emit(_ text: StaticString, _ sink: (UnsafeRawBufferPointer) -> Void) {
        text.withUTF8Buffer { sink(UnsafeRawBufferPointer($0)) }
    }

    /// The scalar value of the `length`-byte UTF-8 sequence at `index` (valid: it is a `String`'s).
    private static func scalarValue(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, length: Int) -> UInt32 {
        let lead = UInt32(bytes[index])
        guard length > 1 else { return lead }
        var value = length == 2 ? lead & 0x1F : length == 3 ? lead & 0x0F : lead & 0x07
        for offset in 1..<length where index + offset < bytes.count {
            value = value << 6 | UInt32(bytes[index + offset] & 0x3F)
        }
        return value
    }

    private enum Escape {
        case text(StaticString)
        case unicode(UInt32)

        func write(to sink: (UnsafeRawBufferPointer) -> Void) {
            switch self {
            case .text(let text): JSONString.emit(text, sink)
            case .unicode(let value) where value > 0xFFFF:
                let offset = value - 0x10000
                Self.unit(0xD800 + (offset >> 10), sink)
                Self.unit(0xDC00 + (offset & 0x3FF), sink)
            case .unicode(let value): Self.unit(value, sink)
            }
        }

        /// `\uxxxx` for one UTF-16 unit.
        private static func unit(_ value: UInt32, _ sink: (UnsafeRawBufferPointer) -> Void) {
            let hex: StaticString = "0123456789abcdef"
            hex.withUTF8Buffer { digits in
                let text: [UInt8] = [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"),
                    digits[Int(value >> 12 & 0xF)], digits[Int(value >> 8 & 0xF)],
                    digits[Int(value >> 4 & 0xF)], digits[Int(value & 0xF)],
                ]
                text.withUnsafeBytes(sink)
            }
        }
    }
}
