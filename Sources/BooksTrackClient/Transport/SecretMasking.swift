import Foundation

/// Masks secrets before anything is traced or logged: `Authorization` values, `authToken` /
/// `token` / `oldToken` JSON fields, `?token=` queries, the `bookstrack-auth.<token>` WebSocket
/// subprotocol and URL userinfo.
public enum SecretMasking {
    /// The replacement text.
    public static let mask = "***"

    private static let jsonFields = try? NSRegularExpression(
        pattern: #"("(?:authToken|token|oldToken|accessToken|refreshToken|password|apiKey)"\s*:\s*")((?:[^"\\]|\\.)*)(")"#,
        options: [.caseInsensitive])
    private static let queryToken = try? NSRegularExpression(
        pattern: #"([?&;](?:token|authToken|access_token|api_key|apikey)=)([^&#\s"]*)"#, options: [.caseInsensitive])
    private static let subprotocol = try? NSRegularExpression(
        pattern: #"(bookstrack-auth\.)([^\s,;"]+)"#, options: [.caseInsensitive])
    private static let bearer = try? NSRegularExpression(
        pattern: #"(Bearer\s+)([^\s,;"]+)"#, options: [.caseInsensitive])
    private static let userinfo = try? NSRegularExpression(
        pattern: #"([a-zA-Z][a-zA-Z0-9+.-]*://)([^/@\s]+)@"#, options: [])

    /// Masks every known secret pattern in free text (bodies, URLs, messages).
    public static func maskText(_ text: String) -> String {
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
    static func mightContainSecret(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.contains("token") || lower.contains("bearer") || lower.contains("bookstrack-auth")
            || lower.contains("@") || lower.contains("password") || lower.contains("apikey") || lower.contains("api_key")
    }

    /// Masks a URL: userinfo and `token`-like query parameters.
    public static func maskURL(_ url: String) -> String { maskText(url) }

    /// Masks one header: `Authorization`/`Proxy-Authorization`/`Cookie` values entirely (keeping the
    /// scheme word), `Sec-WebSocket-Protocol` tokens, and any secret pattern elsewhere.
    public static func maskHeader(name: String, value: String) -> String {
        switch name.lowercased() {
        case "authorization", "proxy-authorization":
            let parts = value.split(separator: " ", maxSplits: 1)
            return parts.count == 2 ? "\(parts[0]) \(mask)" : mask
        case "cookie", "set-cookie", "x-api-key":
            return mask
        default:
            return maskText(value)
        }
    }

    /// Masks a list of headers.
    public static func maskHeaders(_ headers: [HeaderField]) -> [HeaderField] {
        headers.map { HeaderField(name: $0.name, value: maskHeader(name: $0.name, value: $0.value)) }
    }

    private static func replace(_ regex: NSRegularExpression, in text: String, template: String) -> String {
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        return regex.stringByReplacingMatches(in: text, options: [], range: range, withTemplate: template)
    }
}
