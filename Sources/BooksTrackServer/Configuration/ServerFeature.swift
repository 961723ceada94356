import BooksTrackContract
import Foundation

/// A switchable feature of the local server: a documented capabilities feature (docs/contract.md §4).
/// The contract's `CapabilityFeature.documented` is the one list; the server, its capabilities body
/// and `bts serve --disable` all read it.
package typealias ServerFeature = CapabilityFeature

extension CapabilityFeature {
    /// Accepts a documented feature's wire name (`semantic_search`), a dashed form
    /// (`semantic-search`) or a short alias; nil for anything else.
    package init?(name: String) {
        let normalized = name.lowercased().replacingOccurrences(of: "-", with: "_")
        if let feature = Self.documented.first(where: { $0.rawValue == normalized }) {
            self = feature
            return
        }
        switch normalized {
        case "semantic": self = .semanticSearch
        case "similar": self = .similarBooks
        case "weekly", "recommendations": self = .weeklyRecommendations
        case "import", "imports": self = .csvImport
        case "batch": self = .batchEnrichment
        case "sse": self = .sseProgress
        case "cancel", "cancellation": self = .jobCancellation
        case "scan", "scans": self = .bookshelfScan
        default: return nil
        }
    }
}
