import Foundation

/// The one check every server URL passes before it is used: the `--api` flag, `BTS_API_URL`, a
/// config profile, `connect`, each request's URL and every redirect `Location`.
///
/// A URL the HTTP client cannot safely connect to is refused here with a plain sentence: the HTTP
/// client traps (SIGILL) on a port above 65535 inside its socket-address conversion, so such a
/// URL must never reach it. Error texts never repeat the URL's credentials.
package enum ServerURL {
    /// Why a URL was refused (the sentence names the URL with its credentials masked).
    package struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// "'http://***@host:99999' has port 99999; a port is 1–65535".
        package var message: String
        package var description: String { message }
    }

    /// The URL, if `text` is an absolute http(s) URL with a host and a port in 1…65535.
    package static func parse(_ text: String) -> Result<URL, Problem> {
        if let problem = precheck(text) { return .failure(problem) }
        guard let url = URL(string: text), url.host?.isEmpty == false else {
            return .failure(Problem(message: "'\(SecretMasking.maskURL(printable(text)))' is not a valid URL"))
        }
        return .success(url)
    }

    /// A server's own URL (`--api`, `BTS_API_URL`, a profile, `connect`): what `parse` accepts,
    /// without a query or fragment, since each request's path and query are appended to it
    /// (`…/?api_key=K` built `/?api_key=K/v3/capabilities`). A key goes in a profile's `token`.
    package static func parseServer(_ text: String) -> Result<URL, Problem> {
        let url: URL
        switch parse(text) {
        case .success(let parsed): url = parsed
        case .failure(let problem): return .failure(problem)
        }
        // Named without its query (which may hold a key).
        let shown = "'\(SecretMasking.maskURL(String(printable(text).prefix { $0 != "?" && $0 != "#" })))'"
        if url.query != nil || text.contains("?") {
            return .failure(
                Problem(
                    message: "\(shown) has a query (?…); a server URL is its scheme, host, port and path only "
                        + "(an API key goes in a profile's token)"
                )
            )
        }
        if url.fragment != nil || text.contains("#") {
            return .failure(
                Problem(message: "\(shown) has a fragment (#…); a server URL is its scheme, host, port and path only")
            )
        }
        return .success(url)
    }

    /// Why `parse` would refuse `text`, or nil: the same verdict without building the `URL` when
    /// every byte is one RFC 3986 allows unescaped (or a `%XX` escape), which Foundation's parser
    /// accepts once the scheme, host and port passed (each request's URL passes here).
    package static func check(_ text: String) -> Problem? {
        if let problem = precheck(text) { return problem }
        if isPlain(text) { return nil }
        if case .failure(let problem) = parse(text) { return problem }
        return nil
    }

    /// Letters, digits, `-._~!$&'()*+,;=:@/?` and `%` with two hex digits, in a URL whose
    /// authority is `[user[:password]@]host[:port]`.
    static func isPlain(_ text: String) -> Bool {
        guard isPlainText(text.utf8), let schemeEnd = text.range(of: "://") else { return false }
        // The authority: at most one `@`, at most one `:` on each side of it, no IPv6 literal.
        let authority = text[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let parts = authority.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2, !(parts.last ?? "").hasPrefix("[") else { return false }
        return parts.allSatisfy { part in part.utf8.count(where: { $0 == UInt8(ascii: ":") }) <= 1 }
    }

    /// Every byte one RFC 3986 allows unescaped (letters, digits, `-._~!$&'()*+,;=:@/?`) or a `%`
    /// with two hex digits.
    static func isPlainText(_ bytes: some Sequence<UInt8>) -> Bool {
        var escape = 0
        for byte in bytes {
            if escape > 0 {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                    UInt8(ascii: "A")...UInt8(ascii: "F"):
                    escape -= 1
                    continue
                default:
                    return false
                }
            }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
                UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","),
                UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"),
                UInt8(ascii: "?"):
                continue
            case UInt8(ascii: "%"):
                escape = 2
            default:
                return false
            }
        }
        return escape == 0
    }

    /// A server URL that `check` accepts and that is plain (`isPlain`), without trailing `/`: a
    /// URL made of it and a plain path is accepted as well, so `check(_:under:)` passes each
    /// request's URL with one prefix comparison and a byte scan of the path.
    package struct CheckedBase: Sendable, Hashable {
        let text: String

        /// `nil` when `check` refuses `base` or it is not plain (each URL is then checked whole).
        package init?(_ base: String) {
            var text = base
            while text.hasSuffix("/") { text.removeLast() }
            guard ServerURL.check(text) == nil, ServerURL.isPlain(text) else { return nil }
            self.text = text
        }
    }

    /// `check(text)`, answered without parsing when `text` is `base` followed by `/` and a plain
    /// path and query: the scheme and authority are then `base`'s own (which passed), and no byte
    /// is a space, a control or anything outside `isPlain`'s set.
    package static func check(_ text: String, under base: CheckedBase?) -> Problem? {
        if let base, extends(text, base) { return nil }
        return check(text)
    }

    static func extends(_ text: String, _ base: CheckedBase) -> Bool {
        let bytes = text.utf8
        let prefix = base.text.utf8
        guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return false }
        let rest = bytes.dropFirst(prefix.count)
        return rest.first == UInt8(ascii: "/") && isPlainText(rest)
    }

    /// The scheme, host and port checks (everything but Foundation's parse).
    private static func precheck(_ text: String) -> Problem? {
        // Built only for a refusal (every request's URL passes here).
        var shown: String { "'\(SecretMasking.maskURL(printable(text)))'" }
        if hasSpaceOrControl(text) {
            return Problem(message: "\(shown) contains spaces or control characters")
        }
        guard let schemeEnd = text.range(of: "://") else {
            return Problem(message: "\(shown) is not an http:// or https:// URL")
        }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            return Problem(message: "\(shown) is not an http:// or https:// URL")
        }
        let rest = text[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        var host = Substring(hostPort)
        var portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else {
                return Problem(message: "\(shown) has an unclosed IPv6 address")
            }
            host = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
            let after = hostPort[hostPort.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                return Problem(message: "\(shown) has text after its IPv6 address")
            }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = hostPort[..<colon]
            portText = hostPort[hostPort.index(after: colon)...]
        }
        guard !host.isEmpty else { return Problem(message: "\(shown) has no host name") }
        if let portText, !portText.isEmpty {
            guard portText.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return Problem(message: "\(shown) has a port that is not a number")
            }
            let digits = portText.drop { $0 == "0" }
            let port = digits.count > 5 ? Int.max : Int(digits) ?? 0
            guard (1...65535).contains(port) else {
                let shownPort = portText.count > 12 ? String(portText.prefix(12)) + "…" : String(portText)
                return Problem(message: "\(shown) has port \(shownPort); a port is 1–65535")
            }
        }
        return nil
    }

    /// A space or a control character (Unicode category Cc) anywhere in `text`; ASCII text is
    /// checked byte by byte.
    static func hasSpaceOrControl(_ text: String) -> Bool {
        var ascii = true
        var found = false
        for byte in text.utf8 {
            if byte >= 0x80 {
                ascii = false
                break
            }
            if byte <= 0x20 || byte == 0x7F {
                found = true
                break
            }
        }
        if found { return true }
        if ascii { return false }
        return text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " })
    }

    /// The problem with a URL already built (nil: fine to use).
    package static func problem(_ url: URL) -> Problem? {
        if case .failure(let problem) = parse(url.absoluteString) { return problem }
        return nil
    }

    /// The URL's text without `user:password@` (for cache keys and file names).
    package static func withoutCredentials(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return text }
        return String(text[..<schemeEnd.upperBound]) + String(rest[rest.index(after: at)...])
    }

    /// At most 200 characters, control characters shown as `?` (an error message never carries them).
    static func printable(_ text: String) -> String {
        let cleaned = String(
            String.UnicodeScalarView(
                text.unicodeScalars.map {
                    $0.properties.generalCategory == .control ? "?" : $0
                }
            )
        )
        return cleaned.count > 200 ? String(cleaned.prefix(200)) + "…" : cleaned
    }
}
