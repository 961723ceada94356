/// A parsed JSON document for `JSONTreeDecoder`: strict RFC 8259 only.
///
/// The parser promises one thing: when it returns a tree, `JSONDecoder` would read the same
/// document the same way. Anything `JSONDecoder` reads differently or leniently (a duplicate key —
/// it keeps the first —, a trailing comma, a byte-order mark, a lone surrogate, invalid UTF-8, an
/// exponent or a fraction where it might round) makes the parser give up (`nil`), and the caller
/// uses `JSONDecoder` itself.
enum JSONTree: Sendable {
    case null
    case bool(Bool)
    /// An integer written without fraction or exponent that fits `Int`.
    case integer(Int)
    /// Any other number, as written (validated against the JSON grammar).
    case number(String)
    case string(String)
    case array([JSONTree])
    /// Members in document order; keys are unique.
    case object([Member])

    struct Member: Sendable {
        var key: String
        var value: JSONTree
    }

    /// The tree of `bytes`, or `nil` when the parser cannot promise `JSONDecoder`'s reading.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> JSONTree? {
        var parser = Parser(bytes: bytes.bindMemory(to: UInt8.self))
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipWhitespace()
        return parser.index == parser.bytes.count ? value : nil
    }

    /// Nesting deeper than this is left to `JSONDecoder` (keeps the recursion bounded).
    static let maxDepth = 128

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) -> JSONTree? {
            skipWhitespace()
            guard index < bytes.count, depth <= JSONTree.maxDepth else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(JSONTree.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return nil
            }
        }

        mutating func literal(_ word: StaticString, _ value: JSONTree) -> JSONTree? {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return nil }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
            index += count
            return value
        }

        mutating func object(depth: Int) -> JSONTree? {
            index += 1  // {
            var members: [Member] = []
            members.reserveCapacity(16)
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                // A duplicate key: JSONDecoder keeps the first; left to it. (Lengths first: a
                // count is O(1), a comparison is not.)
                let length = key.utf8.count
                for member in members where member.key.utf8.count == length && member.key == key { return nil }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let value = value(depth: depth + 1) else { return nil }
                members.append(Member(key: key, value: value))
                skipWhitespace()
                guard index < bytes.count else { return nil }
                switch bytes[index] {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    return .object(members)
                default: return nil
                }
            }
        }

        mutating func array(depth: Int) -> JSONTree? {
            index += 1  // [
            var elements: [JSONTree] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                skipWhitespace()
                guard index < bytes.count else { return nil }
                switch bytes[index] {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"):
                    index += 1
                    return .array(elements)
                default: return nil
                }
            }
        }

        /// A string starting at the opening quote.
        mutating func string() -> String? {
            index += 1  // "
            let start = index
            var ascii = true
            // Eight bytes at a time while none is a quote, a backslash or a control byte (the
            // bytes are then looked at one by one from the word that has one).
            if let base = bytes.baseAddress {
                let ones: UInt64 = 0x0101_0101_0101_0101
                let highs: UInt64 = 0x8080_8080_8080_8080
                while bytes.count - index >= 8 {
                    // Little-endian order whatever the machine's: the first byte is the lowest.
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                    let quote = word ^ (ones &* 0x22)
                    let backslash = word ^ (ones &* 0x5C)
                    let special = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (word &- ones &* 0x20) & ~word) & highs
                    if special != 0 {
                        // The lowest flagged byte is the first special one (a flag can only be
                        // wrong above a true one); the bytes before it are plain.
                        let plain = special.trailingZeroBitCount / 8
                        if word & highs & ((1 &<< UInt64(plain * 8)) &- 1) != 0 { ascii = false }
                        index += plain
                        break
                    }
                    if word & highs != 0 { ascii = false }
                    index += 8
                }
            }
            // The common case: no escapes; one scan, one copy.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    return ascii ? String(decoding: slice, as: UTF8.self) : String(validating: slice, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { return nil }
                if byte >= 0x80 { ascii = false }
                index += 1
            }
            guard index < bytes.count else { return nil }
            var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return String(validating: decoded, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                    case UInt8(ascii: "b"): decoded.append(0x08)
                    case UInt8(ascii: "f"): decoded.append(0x0C)
                    case UInt8(ascii: "n"): decoded.append(0x0A)
                    case UInt8(ascii: "r"): decoded.append(0x0D)
                    case UInt8(ascii: "t"): decoded.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = unicodeEscape() else { return nil }
                        decoded.append(contentsOf: UTF8.encode(scalar).map { Array($0) } ?? [])
                    default: return nil
                    }
                default:
                    if byte < 0x20 { return nil }
                    decoded.append(byte)
                    index += 1
                }
            }
            return nil
        }

        /// The scalar of `XXXX` (after `\u`), joining a surrogate pair; a lone surrogate is `nil`.
        mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(high) {
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { return nil }
                index += 2
                guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            }
            return Unicode.Scalar(high)
        }

        mutating func hex4() -> UInt32? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
        mutating func number() -> JSONTree? {
            let start = index
            let negative = bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            func digits(_ parser: inout Parser) -> Int {
                var count = 0
                while parser.index < parser.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index]) {
                    parser.index += 1
                    count += 1
                }
                return count
            }
            let integerStart = index
            let integerDigits = digits(&self)
            guard integerDigits > 0 else { return nil }
            if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { return nil }
            var plain = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits(&self) > 0 else { return nil }
                plain = false
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits(&self) > 0 else { return nil }
                plain = false
            }
            // `-0` stays text: as a Double it is negative zero.
            if plain, integerDigits <= 18, !(negative && integerDigits == 1 && bytes[integerStart] == UInt8(ascii: "0")) {
                var value = 0
                for offset in integerStart..<index { value = value * 10 + Int(bytes[offset] - UInt8(ascii: "0")) }
                return .integer(negative ? -value : value)
            }
            return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        }
    }
}
