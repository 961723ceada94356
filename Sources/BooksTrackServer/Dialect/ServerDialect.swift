/// How the local server speaks: the documented contract (docs/contract.md, the default) or the deployed
/// backend's dialect as read in its source (`jukasdrj/bendv3`), quirks included
/// (`bts serve --dialect production`; see docs/production-dialect.md).
package enum ServerDialect: String, Sendable, Hashable, CaseIterable {
    /// The documented contract: what bts's own client and docs expect.
    case contract
    /// The deployed backend's bodies, statuses, headers, event sequences and route gaps.
    case production

    /// Parses a `--dialect` value (`contract` or `production`, case-insensitive).
    package init?(name: String) {
        switch name.lowercased() {
        case "contract", "standin", "stand-in", "default": self = .contract
        case "production", "prod": self = .production
        default: return nil
        }
    }
}
