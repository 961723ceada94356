import Foundation

/// Masks secrets before anything is traced or logged: `Authorization` values, `authToken` /
/// `token` / `oldToken` JSON fields, `?token=` queries, the `bookstrack-auth.<token>` WebSocket
/// subprotocol and URL userinfo.
package enum SecretMasking {
    /// The replacement text.
    package static let mask = "***"

    private static let jsonFields = try? NSRegularExpression(
        pattern:
            #"("(?:authToken|token|oldToken|accessToken|refreshToken|password|apiKey)"\s*:\s*")((?:[^"\\]|\\.)*)(")"#,
        options: [.caseInsensitive]
    )
    private static let queryToken = try? NSRegularExpression(
        pattern: #"([?&;](?:token|authToken|access_token|api_key|apikey)=)([^&#\s"]*)"#,
        options: [.caseInsensitive]
    )
    private static let subprotocol = try? NSRegularExpression(
        pattern: #"(bookstrack-auth\.)([^\s,;"]+)"#,
        options: [.caseInsensitive]
    )
    private static let bearer = try? NSRegularExpression(
        pattern: #"(Bearer\s+)([^\s,;"]+)"#,
        options: [.caseInsensitive]
    )
    private static let userinfo = try? NSRegularExpression(
        pattern: #"([a-zA-Z][a-zA-Z0-9+.-]*://)([^/@\s]+)@"#,
        options: []
    )

    /// Masks every known secret pattern in free text (bodies, URLs, messages).
    package static func maskText(_ text: String) -> String {
        guard mightContainSecret(text) else { return text }
        var out = text
        for regex in [jsonFields, queryToken, subprotocol, bearer] {
            guard let regex else { continue }
            out = replace(regex, in: out, template: regex === jsonFields ? "$1\(mask)$3" : "$1\(mask)")
        }
        if let userinfo { out = replace(userinfo, in: out, template: "$1\(mask)@") }
        return out
    }

    /// A cheap pre-check so that ordinary text skips the regular expressions.
    /// Scans the UTF-8 bytes once, ASCII case folded (every marker is ASCII); every response
    /// header passes here, so it must not go through Foundation's locale-aware `contains`.
    static func mightContainSecret(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for start in bytes.indices {
                let first = bytes[start] | 0x20
                if bytes[start] == UInt8(ascii: "@") { return true }
                guard
                    first == UInt8(ascii: "t") || first == UInt8(ascii: "b") || first == UInt8(ascii: "p")
                        || first == UInt8(ascii: "a")
                else { continue }
                for marker in secretMarkers where matches(marker, in: bytes, at: start) { return true }
            }
            return false
        }
    }

    /// The lower-case ASCII words that make text worth a closer look (`@`: URL userinfo).
    private static let secretMarkers: [[UInt8]] = [
        "token", "bearer", "bookstrack-auth", "password", "apikey", "api_key",
    ]
    .map { Array($0.utf8) }

    private static func matches(_ marker: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard bytes.count - start >= marker.count else { return false }
        for (offset, expected) in marker.enumerated() {
            let byte = bytes[start + offset]
            // Fold ASCII letters only ('-' and '_' compare as they are).
            let folded = (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte | 0x20 : byte
            if folded != expected { return false }
        }
        return true
    }

    /// Masks a URL: userinfo and `token`-like query parameters.
    package static func maskURL(_ url: String) -> String { maskText(url) }

    /// Masks one header: `Authorization`/`Proxy-Authorization`/`Cookie` values entirely (keeping the
    /// scheme word), `Sec-WebSocket-Protocol` tokens, and any secret pattern elsewhere.
    package static func maskHeader(name: String, value: String) -> String {
        // Compared by bytes: every response header passes here (no lowercased copy of an ASCII
        // name; another is lowercased first, so that e.g. a Kelvin sign still reads as "k").
        let name = name.utf8.allSatisfy { $0 < 0x80 } ? name[...] : name.lowercased()[...]
        func `is`(_ word: StaticString) -> Bool { ResponseCaching.isASCII(name, ignoringCase: word) }
        if `is`("authorization") || `is`("proxy-authorization") {
            let parts = value.split(separator: " ", maxSplits: 1)
            return parts.count == 2 ? "\(parts[0]) \(mask)" : mask
        }
        if `is`("cookie") || `is`("set-cookie") || `is`("x-api-key") { return mask }
        return maskText(value)
    }

    /// Masks a list of headers.
    package static func maskHeaders(_ headers: [HeaderField]) -> [HeaderField] {
        headers.map { HeaderField(name: $0.name, value: maskHeader(name: $0.name, value: $0.value)) }
    }

    private static func replace(_ regex: NSRegularExpression, in text: String, template: String) -> String {
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        return regex.stringByReplacingMatches(in: text, options: [], range: range, withTemplate: template)
    }
}
