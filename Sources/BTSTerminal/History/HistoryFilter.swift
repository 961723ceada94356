import Foundation

/// Decides which accepted lines may be recorded in the history.
///
/// Never recorded:
/// - empty or whitespace-only lines;
/// - lines starting with a space (like bash's `HISTCONTROL=ignorespace`): type a leading space
///   to keep a command out of the history;
/// - lines the built-in secret filter refuses: they contain (case-insensitively)
///   `authorization`, `bearer `, `token=`, `--token`, `password`, `passwd`, `api_key`, `api-key`,
///   `apikey`, `secret=`, or URL userinfo (`scheme://user:pass@host`, `scheme://token@host`);
/// - lines the caller's `isSensitive` predicate flags (the command registry knows which
///   arguments are secrets, e.g. `connect https://user:pw@host`);
/// - lines longer than `maximumLength` UTF-8 bytes (64 KiB).
package struct HistoryFilter: Sendable {
    /// Extra, caller-supplied secret detection.
    package var isSensitive: (@Sendable (String) -> Bool)?
    /// Longest line recorded, in UTF-8 bytes.
    package var maximumLength: Int

    package init(isSensitive: (@Sendable (String) -> Bool)? = nil, maximumLength: Int = 64 * 1024) {
        self.isSensitive = isSensitive
        self.maximumLength = maximumLength
    }

    /// The filter with only the built-in rules.
    package static let builtIn = HistoryFilter()

    /// Substrings (lowercase) that mark a line as carrying a secret.
    package static let secretMarkers = [
        "authorization", "bearer ", "token=", "--token", "password", "passwd",
        "api_key", "api-key", "apikey", "secret=",
    ]

    /// True when `line` may be recorded.
    package func allows(_ line: String) -> Bool {
        guard let first = line.unicodeScalars.first, first != " " else { return false }
        guard line.contains(where: { !$0.isWhitespace }) else { return false }
        guard line.utf8.count <= maximumLength else { return false }
        if Self.containsBuiltInSecret(line) { return false }
        if let isSensitive, isSensitive(line) { return false }
        return true
    }

    /// The built-in secret test alone.
    package static func containsBuiltInSecret(_ line: String) -> Bool {
        let lower = line.lowercased()
        if secretMarkers.contains(where: { lower.contains($0) }) { return true }
        return containsURLUserinfo(lower)
    }

    /// True when some `://` is followed by userinfo: non-space characters, then `@`, before any
    /// `/`, `?`, `#` or whitespace.
    static func containsURLUserinfo(_ text: String) -> Bool {
        var rest = Substring(text)
        while let marker = rest.range(of: "://") {
            let authority = rest[marker.upperBound...].prefix { !"/?# \t\n\"'".contains($0) }
            if authority.contains("@") { return true }
            rest = rest[marker.upperBound...]
        }
        return false
    }
}
