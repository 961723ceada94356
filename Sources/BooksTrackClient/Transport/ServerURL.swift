import Foundation

/// The one check every server URL passes before it is used: the `--api` flag, `BTS_API_URL`, a
/// config profile, `connect`, each request's URL and every redirect `Location`.
///
/// A URL the HTTP client cannot safely connect to is refused here with a plain sentence: the HTTP
/// client traps (SIGILL) on a port above 65535 inside its socket-address conversion, so such a
/// URL must never reach it. Error texts never repeat the URL's credentials.
public enum ServerURL {
    /// Why a URL was refused (the sentence names the URL with its credentials masked).
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// "'http://***@host:99999' has port 99999; a port is 1–65535".
        public var message: String
        public var description: String { message }
    }

    /// The URL, if `text` is an absolute http(s) URL with a host and a port in 1…65535.
    public static func parse(_ text: String) -> Result<URL, Problem> {
        // Built only for a refusal (every request's URL passes here).
        var shown: String { "'\(SecretMasking.maskURL(printable(text)))'" }
        if hasSpaceOrControl(text) {
            return .failure(Problem(message: "\(shown) contains spaces or control characters"))
        }
        guard let schemeEnd = text.range(of: "://") else {
            return .failure(Problem(message: "\(shown) is not an http:// or https:// URL"))
        }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            return .failure(Problem(message: "\(shown) is not an http:// or https:// URL"))
        }
        let rest = text[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        var host = Substring(hostPort)
        var portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else {
                return .failure(Problem(message: "\(shown) has an unclosed IPv6 address"))
            }
            host = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
            let after = hostPort[hostPort.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                return .failure(Problem(message: "\(shown) has text after its IPv6 address"))
            }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = hostPort[..<colon]
            portText = hostPort[hostPort.index(after: colon)...]
        }
        guard !host.isEmpty else { return .failure(Problem(message: "\(shown) has no host name")) }
        if let portText, !portText.isEmpty {
            guard portText.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return .failure(Problem(message: "\(shown) has a port that is not a number"))
            }
            let digits = portText.drop { $0 == "0" }
            let port = digits.count > 5 ? Int.max : Int(digits) ?? 0
            guard (1...65535).contains(port) else {
                let shownPort = portText.count > 12 ? String(portText.prefix(12)) + "…" : String(portText)
                return .failure(Problem(message: "\(shown) has port \(shownPort); a port is 1–65535"))
            }
        }
        guard let url = URL(string: text), url.host?.isEmpty == false else {
            return .failure(Problem(message: "\(shown) is not a valid URL"))
        }
        return .success(url)
    }

    /// A space or a control character (Unicode category Cc) anywhere in `text`; ASCII text is
    /// checked byte by byte.
    static func hasSpaceOrControl(_ text: String) -> Bool {
        var ascii = true
        var found = false
        for byte in text.utf8 {
            if byte >= 0x80 { ascii = false; break }
            if byte <= 0x20 || byte == 0x7F { found = true; break }
        }
        if found { return true }
        if ascii { return false }
        return text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " })
    }

    /// The problem with a URL already built (nil: fine to use).
    public static func problem(_ url: URL) -> Problem? {
        if case .failure(let problem) = parse(url.absoluteString) { return problem }
        return nil
    }

    /// The URL without `user:password@` (for anything written to disk or shown).
    public static func strippingCredentials(_ url: URL) -> URL {
        guard url.user != nil || url.password != nil,
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        components.user = nil
        components.password = nil
        return components.url ?? url
    }

    /// The URL's text without `user:password@` (for cache keys and file names).
    public static func withoutCredentials(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return text }
        return String(text[..<schemeEnd.upperBound]) + String(rest[rest.index(after: at)...])
    }

    /// At most 200 characters, control characters shown as `?` (an error message never carries them).
    static func printable(_ text: String) -> String {
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.properties.generalCategory == .control ? "?" : $0
        }))
        return cleaned.count > 200 ? String(cleaned.prefix(200)) + "…" : cleaned
    }
}
