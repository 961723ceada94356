import BooksTrackContract
import NIOCore

/// JSON text pieces written straight into a buffer.
enum JSONText {
    /// A JSON string literal as the contract's encoder writes it (`JSONString`'s `.contract`
    /// escaping: `\"`, `\\`, `\b\f\n\r\t`, else `\u00xx`; everything else as UTF-8).
    static func writeString(_ text: String, to buffer: inout ByteBuffer) {
        JSONString.write(text, .contract) { buffer.writeBytes($0) }
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
