import BooksTrackContract
import Foundation

/// Whether a shell command can run on the connected server.
package enum Availability: Sendable, Hashable {
    case available
    /// The feature is off; the reason explains it ("semantic_search is disabled on this server").
    case unavailable(reason: String)
    /// Capabilities are not known (offline without a cache, or the server does not list the feature).
    case unknown
}

/// Whether a capability feature is available on a server (which shell command needs which feature
/// is the shell's to say: each command type states its own gate).
package enum FeatureAvailability {
    /// The availability of `feature` under `capabilities` (`nil`: unknown). `similar_books` on a
    /// production server (which does not list it) follows `semantic_search`.
    /// On a v3 connection, `semantic_search` or `similar_books` off means the server serves them on no
    /// route: API v3 has none for them (production 3.x, `src/api-v3/index.ts` @ e40ae5d), so a server
    /// without the older routes says false; "switched off" would send the reader looking for a flag.
    package static func availability(
        of feature: CapabilityFeature,
        capabilities: Capabilities?,
        dialect: APIDialect? = nil
    ) -> Availability {
        guard let capabilities else { return .unknown }
        switch capabilities.isEnabled(feature) {
        case .some(true): return .available
        case .some(false):
            if let reason = capabilities.unavailableReason(feature) { return .unavailable(reason: reason) }
            if dialect == .v3, let what = v3Missing[feature.normalized] {
                return .unavailable(reason: "API v3 has no \(what) route, and this server offers it on no other")
            }
            var name = feature.rawValue
            if feature == .similarBooks, capabilities.dialect == .production,
                capabilities.features.keys.contains(where: {
                    CapabilityFeature(rawValue: $0).normalized == feature.normalized
                }) == false
            {
                name = CapabilityFeature.semanticSearch.rawValue
            }
            return .unavailable(reason: "the server has '\(name)' switched off")
        case .none: return .unknown
        }
    }

    /// The features API v3 has no route for, by normalized name, and what to call them.
    static let v3Missing: [String: String] = [
        CapabilityFeature.semanticSearch.normalized: "semantic search",
        CapabilityFeature.similarBooks.normalized: "similar-books",
    ]
}
