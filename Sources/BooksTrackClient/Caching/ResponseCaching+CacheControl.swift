import BooksTrackContract
import Foundation
import NIOHTTP1

extension ResponseCaching {
    /// `Cache-Control: max-age` (seconds), `no-store`/`no-cache` → not cached, else the default (a
    /// client is a private cache: `private` responses may be kept). Read by bytes (RFC 9111 §5.2):
    /// directives split at commas, optional whitespace around each, names in any case, `max-age`'s
    /// delta-seconds as digits (also quoted); the first readable `max-age` counts.
    package static func lifetime(_ headers: HTTPHeaders, default fallback: Duration?) -> TimeInterval? {
        var maxAge: Int?
        for (name, value) in headers where name.utf8.count == 13 && isASCII(name[...], ignoringCase: "cache-control") {
            var bytes = value.utf8[...]
            while !bytes.isEmpty {
                let end = bytes.firstIndex(of: UInt8(ascii: ",")) ?? bytes.endIndex
                let directive = bytes[..<end].trimmingASCIIWhitespace()
                bytes = end == bytes.endIndex ? bytes[end...] : bytes[bytes.index(after: end)...]
                if isASCII(directive, ignoringCase: "no-store") || isASCII(directive, ignoringCase: "no-cache") {
                    return nil
                }
                if maxAge == nil, directive.count > 8, isASCII(directive.prefix(8), ignoringCase: "max-age=") {
                    maxAge = deltaSeconds(directive.dropFirst(8))
                }
            }
        }
        if let maxAge { return maxAge > 0 ? TimeInterval(maxAge) : nil }
        return fallback.map { $0.timeInterval }
    }

    /// RFC 9111 delta-seconds: digits, in quotes or not; a value beyond 2^31 reads as 2^31
    /// (§1.2.2); anything else is not a number (`nil`).
    package static func deltaSeconds(_ bytes: Substring.UTF8View.SubSequence) -> Int? {
        var digits = bytes
        if digits.count >= 2, digits.first == UInt8(ascii: "\""), digits.last == UInt8(ascii: "\"") {
            digits = digits.dropFirst().dropLast()
        }
        guard !digits.isEmpty else { return nil }
        let limit = 1 << 31
        var value = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = min(limit, value * 10 + Int(byte - UInt8(ascii: "0")))
        }
        return value
    }

    /// `text` is the lowercase ASCII `word` in any case.
    package static func isASCII(_ text: Substring, ignoringCase word: StaticString) -> Bool {
        isASCII(text.utf8[...], ignoringCase: word)
    }

    /// The bytes `text` are the lowercase ASCII `word` in any case.
    package static func isASCII(_ text: Substring.UTF8View.SubSequence, ignoringCase word: StaticString) -> Bool {
        guard text.count == word.utf8CodeUnitCount else { return false }
        for (offset, byte) in text.enumerated() {
            let lower = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
            if lower != word.utf8Start[offset] { return false }
        }
        return true
    }
}
