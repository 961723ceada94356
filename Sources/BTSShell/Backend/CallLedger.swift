import BooksTrackClient
import Foundation

/// The bookkeeping of API calls: what the running command's calls cost (for `timing`) and which
/// deprecation warnings the session has shown (each once). Pure state, no I/O.
struct CallLedger: Sendable {
    /// The running command's calls.
    var metrics = CommandMetrics()
    private var deprecationsShown: Set<String> = []

    /// Books one response; returns its deprecation warning when the session has not shown it yet.
    mutating func record(_ info: ResponseInfo) -> String? {
        metrics.calls += 1
        metrics.networkTime += info.duration
        if info.cacheHit { metrics.cacheHits += 1 }
        if info.serverCacheHit == true { metrics.serverCacheHits += 1 }
        metrics.retries += max(0, info.attempts - 1)
        guard let warning = info.deprecationWarning, !deprecationsShown.contains(warning) else { return nil }
        deprecationsShown.insert(warning)
        return warning
    }

    /// Books the state of the budget a call used (`search 98/100`), when its limit is known.
    mutating func record(_ budget: RateLimitClass, _ state: RateLimitBudget) {
        guard let limit = state.limit else { return }
        metrics.budgets.append("\(budget.rawValue) \(state.remaining.map(String.init) ?? "?")/\(limit)")
    }
}
