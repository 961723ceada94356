/// Which generation of the BooksTrack API a server speaks, as the client negotiated it (or was told).
///
/// Production has served only v3 since its 3.0.0 release (bendv3 CHANGELOG, 2025-12-01: "V1 API
/// endpoints … Sunset complete"; `/api/v2/*` removed the same month; `src/router.ts` @ e40ae5d mounts
/// no v1/v2 route). The stand-in serves both.
package enum APIDialect: String, Codable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `/v1/*` and `/api/v2/*`: the seeds' contract, older deployments, the stand-in's first routes.
    case v1 = "v1"
    /// `/v3/*`: today's production (bendv3 3.x), RFC 9457 problem details, job tokens on SSE.
    case v3 = "v3"

    /// Parses `v1`, `v2`, `legacy` (→ `.v1`), `v3` (case-insensitive); `auto` and anything else → nil.
    package init?(name: String) {
        switch name.lowercased() {
        case "v1", "v2", "legacy", "v1/v2": self = .v1
        case "v3": self = .v3
        default: return nil
        }
    }

    /// "v1/v2" or "v3".
    package var description: String { self == .v1 ? "v1/v2" : "v3" }
}
