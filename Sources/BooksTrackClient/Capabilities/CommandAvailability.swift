import BooksTrackContract
import Foundation

/// Whether a shell command can run on the connected server.
public enum Availability: Sendable, Hashable {
    case available
    /// The feature is off; the reason explains it ("semantic_search is disabled on this server").
    case unavailable(reason: String)
    /// Capabilities are not known (offline without a cache, or the server does not list the feature).
    case unknown

    /// True unless known to be unavailable (unknown lets the request try).
    public var mayRun: Bool {
        if case .unavailable = self { return false }
        return true
    }
}

/// The feature→command gating table (SHELL.md "Capability gating").
public enum CommandGating {
    /// Commands gated by a capability feature.
    public static let table: [String: CapabilityFeature] = [
        "similar": .similarBooks,
        "semantic": .semanticSearch,
        "recommend": .weeklyRecommendations,
        "import": .csvImport,
        "enrich-batch": .batchEnrichment,
        "cancel": .jobCancellation,
    ]

    /// The availability of `command` under `capabilities` (`nil`: unknown). `similar` on a production
    /// server (no `similar_books` feature) follows `semantic_search`.
    public static func availability(of command: String, capabilities: Capabilities?) -> Availability {
        guard let feature = table[command.lowercased()] else { return .available }
        guard let capabilities else { return .unknown }
        switch capabilities.isEnabled(feature) {
        case .some(true): return .available
        case .some(false):
            var name = feature.rawValue
            if feature == .similarBooks, capabilities.dialect == .production,
                capabilities.features.keys.contains(where: { CapabilityFeature(rawValue: $0).normalized == feature.normalized }) == false
            {
                name = CapabilityFeature.semanticSearch.rawValue
            }
            return .unavailable(reason: "the server has '\(name)' switched off")
        case .none: return .unknown
        }
    }
}
