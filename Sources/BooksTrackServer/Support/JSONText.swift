import NIOCore

/// JSON text pieces written straight into a buffer.
enum JSONText {
    /// A JSON string literal: quotes, backslashes and control characters escaped as the contract's
    /// encoder escapes them (`\"`, `\\`, `\b\f\n\r\t`, else `\u00XX`), everything else as UTF-8.
    static func writeString(_ text: String, to buffer: inout ByteBuffer) {
        buffer.writeInteger(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                buffer.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[runStart..<index]))
                switch byte {
                case UInt8(ascii: "\""): buffer.writeStaticString(#"\""#)
                case UInt8(ascii: "\\"): buffer.writeStaticString(#"\\"#)
                case 0x08: buffer.writeStaticString(#"\b"#)
                case 0x0C: buffer.writeStaticString(#"\f"#)
                case 0x0A: buffer.writeStaticString(#"\n"#)
                case 0x0D: buffer.writeStaticString(#"\r"#)
                case 0x09: buffer.writeStaticString(#"\t"#)
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    buffer.writeStaticString(#"\u00"#)
                    buffer.writeInteger(hex[Int(byte >> 4)])
                    buffer.writeInteger(hex[Int(byte & 0x0F)])
                }
                runStart = index + 1
            }
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[runStart...]))
        }
        buffer.writeInteger(UInt8(ascii: "\""))
    }

    /// A number as the contract's encoder writes a `Double`: Swift's shortest round-trip text, with
    /// a whole number's ".0" dropped; `nil` for NaN and infinities, which JSON cannot hold (the
    /// encoder throws for them).
    static func number(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// A JSON array of strings.
    static func writeStrings(_ list: [String], to buffer: inout ByteBuffer) {
        buffer.writeInteger(UInt8(ascii: "["))
        for (index, item) in list.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            writeString(item, to: &buffer)
        }
        buffer.writeInteger(UInt8(ascii: "]"))
    }
}
