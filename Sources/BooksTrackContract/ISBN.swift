/// An ISBN-10 or ISBN-13, validated by checksum.
///
/// `ISBN(parsing:)` accepts hyphens and spaces between digits ("978-0-439-02348-1",
/// "0 439 02348 3") and a final `X`/`x` check character for ISBN-10. The canonical form keeps
/// digits only (and an upper-case `X`).
package struct ISBN: Hashable, Sendable, CustomStringConvertible, Codable {
    package enum Kind: Sendable, Hashable { case isbn10, isbn13 }

    /// Why a string is not an ISBN; `message` is the user-facing wording.
    package enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case invalidCharacter(Character)
        case wrongLength(Int)
        case misplacedCheckCharacter
        case badChecksum(expected: Character)
        case badPrefix

        package var description: String { message }

        package var message: String {
            switch self {
            case .empty: return "ISBN is empty"
            case .invalidCharacter(let c): return "ISBN contains an invalid character '\(c)'"
            case .wrongLength(let n): return "ISBN must have 10 or 13 digits, got \(n)"
            case .misplacedCheckCharacter: return "'X' may only be the last character of an ISBN-10"
            case .badChecksum(let expected): return "ISBN checksum is wrong (the check digit should be \(expected))"
            case .badPrefix: return "an ISBN-13 must start with 978 or 979"
            }
        }
    }

    /// Digits only (ISBN-10 may end in `X`).
    package let value: String
    package let kind: Kind

    package init(parsing raw: String) throws(ParseError) {
        // Digits and an upper-case X, as ASCII bytes. Plain ASCII input (every request's ISBN) is
        // read byte by byte; anything else (Unicode hyphens or spaces, an invalid character to
        // name in the error) goes through Characters.
        let chars: [UInt8]
        if let ascii = Self.asciiCharacters(raw) { chars = ascii } else { chars = try Self.characters(raw) }
        if chars.isEmpty { throw .empty }
        let x = UInt8(ascii: "X")
        if let xIndex = chars.firstIndex(of: x), xIndex != chars.count - 1 || chars.count != 10 {
            throw chars.count == 10 || chars.count == 13 ? .misplacedCheckCharacter : .wrongLength(chars.count)
        }
        switch chars.count {
        case 10:
            let expected = ISBN.check10(chars[..<9])
            guard chars[9] == expected else { throw .badChecksum(expected: Character(Unicode.Scalar(expected))) }
            self.kind = .isbn10
        case 13:
            guard chars[0] == UInt8(ascii: "9"), chars[1] == UInt8(ascii: "7"),
                chars[2] == UInt8(ascii: "8") || chars[2] == UInt8(ascii: "9")
            else { throw .badPrefix }
            let expected = ISBN.check13(chars[..<12])
            guard chars[12] == expected else { throw .badChecksum(expected: Character(Unicode.Scalar(expected))) }
            self.kind = .isbn13
        default:
            throw .wrongLength(chars.count)
        }
        self.value = String(decoding: chars, as: UTF8.self)
    }

    /// The ISBN characters of all-ASCII text with only digits, X/x, hyphens and spaces inside
    /// (ASCII white space around it); `nil` for anything else.
    static func asciiCharacters(_ raw: String) -> [UInt8]? {
        var chars: [UInt8] = []
        chars.reserveCapacity(13)
        let bytes = raw.utf8
        guard let first = bytes.firstIndex(where: { !$0.isASCIIWhitespace }),
            let last = bytes.lastIndex(where: { !$0.isASCIIWhitespace })
        else { return bytes.allSatisfy { $0 < 0x80 } ? [] : nil }
        for byte in bytes[first...last] {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): chars.append(byte)
            case UInt8(ascii: "X"), UInt8(ascii: "x"): chars.append(UInt8(ascii: "X"))
            case UInt8(ascii: "-"), UInt8(ascii: " "): continue
            default: return nil
            }
        }
        return chars
    }

    /// The ISBN characters of any text, Character by Character (Unicode hyphens and spaces skipped).
    static func characters(_ raw: String) throws(ParseError) -> [UInt8] {
        var chars: [UInt8] = []
        for ch in raw.trimmingWhitespace() {
            if ch == "-" || ch == " " || ch == "\u{2010}" || ch == "\u{2011}" { continue }
            if ch.isASCII, ch.isNumber, let byte = ch.asciiValue {
                chars.append(byte)
                continue
            }
            if ch == "X" || ch == "x" {
                chars.append(UInt8(ascii: "X"))
                continue
            }
            throw .invalidCharacter(ch)
        }
        return chars
    }

    /// `nil` instead of an error.
    package init?(_ raw: String) {
        guard let isbn = try? ISBN(parsing: raw) else { return nil }
        self = isbn
    }

    package var description: String { value }

    /// The ISBN-13 form (978-prefixed for an ISBN-10).
    package var isbn13: String {
        switch kind {
        case .isbn13: return value
        case .isbn10:
            let body = Array(("978" + value.prefix(9)).utf8)
            return String(decoding: body + [ISBN.check13(body[...])], as: UTF8.self)
        }
    }

    /// The ISBN-10 form, when one exists (only 978-prefixed ISBN-13s have one).
    package var isbn10: String? {
        switch kind {
        case .isbn10: return value
        case .isbn13:
            guard value.hasPrefix("978") else { return nil }
            let body = Array(value.utf8.dropFirst(3).prefix(9))
            return String(decoding: body + [ISBN.check10(body[...])], as: UTF8.self)
        }
    }

    /// True when `raw` looks like an attempt at an ISBN (digits, hyphens, spaces, X; 10–17 chars),
    /// whether or not its checksum is right. The shell uses this to route `search QUERY`.
    package static func looksLikeISBN(_ raw: String) -> Bool {
        let trimmed = raw.trimmingWhitespace()
        guard (9...17).contains(trimmed.count) else { return false }
        var digits = 0
        for ch in trimmed {
            if ch.isASCII, ch.isNumber {
                digits += 1
            } else if ch == "-" || ch == " " || ch == "X" || ch == "x" {
                continue
            } else {
                return false
            }
        }
        return digits >= 9
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(String.self)
        do {
            self = try ISBN(parsing: raw)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    /// The ISBN-10 check character of nine ASCII digits.
    static func check10(_ body: ArraySlice<UInt8>) -> UInt8 {
        var sum = 0
        for (i, byte) in body.enumerated() { sum += (10 - i) * Int(byte &- UInt8(ascii: "0")) }
        let check = (11 - sum % 11) % 11
        return check == 10 ? UInt8(ascii: "X") : UInt8(ascii: "0") + UInt8(check)
    }

    /// The ISBN-13 check digit of twelve ASCII digits.
    static func check13(_ body: ArraySlice<UInt8>) -> UInt8 {
        var sum = 0
        for (i, byte) in body.enumerated() { sum += (i % 2 == 0 ? 1 : 3) * Int(byte &- UInt8(ascii: "0")) }
        return UInt8(ascii: "0") + UInt8((10 - sum % 10) % 10)
    }
}

extension StringProtocol where SubSequence == Substring {
    /// Without leading and trailing whitespace (`Character.isWhitespace`). ASCII is trimmed byte by
    /// byte (a header value passes here on every response); a non-ASCII neighbour takes the
    /// character path, so that a combining mark keeps its base.
    package func trimmingWhitespace() -> Substring {
        var s = self[...]
        while let first = s.utf8.first {
            let second = s.utf8.dropFirst().first
            if first < 0x80, second.map({ $0 < 0x80 }) ?? true {
                guard first.isASCIIWhitespace else { break }
                s = s.utf8.dropFirst().withSubstring
            } else {
                guard let c = s.first, c.isWhitespace else { break }
                s.removeFirst()
            }
        }
        while let last = s.utf8.last {
            let previous = s.utf8.dropLast().last
            if last < 0x80, previous.map({ $0 < 0x80 }) ?? true {
                guard last.isASCIIWhitespace else { break }
                s = s.utf8.dropLast().withSubstring
            } else {
                guard let c = s.last, c.isWhitespace else { break }
                s.removeLast()
            }
        }
        return s
    }
}

extension UInt8 {
    /// ASCII white space: space, tab, line feed, vertical tab, form feed, carriage return.
    package var isASCIIWhitespace: Bool { self == 0x20 || (0x09...0x0D).contains(self) }
}

extension String {
    /// Whether every UTF-8 byte passes `test`, read over the string's own bytes where it has them
    /// (iterating `utf8` one index at a time is slower on hot paths).
    package func allUTF8(_ test: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.allSatisfy(test) } ?? utf8.allSatisfy(test)
    }
}

extension Substring.UTF8View {
    /// These bytes without leading and trailing ASCII white space (a header value's optional
    /// white space, read by bytes).
    package func trimmingASCIIWhitespace() -> Substring.UTF8View {
        var trimmed = self
        while let first = trimmed.first, first.isASCIIWhitespace { trimmed = trimmed.dropFirst() }
        while let last = trimmed.last, last.isASCIIWhitespace { trimmed = trimmed.dropLast() }
        return trimmed
    }
}

extension Substring.UTF8View.SubSequence {
    /// The substring of these bytes (they start and end on scalar boundaries here).
    fileprivate var withSubstring: Substring { Substring(self) }
}
