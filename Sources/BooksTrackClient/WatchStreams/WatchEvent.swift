import BooksTrackContract
import Foundation

/// What `BooksTrackAPI.watch(jobID:pipeline:token:)` reports, in order.
package enum WatchEvent: Sendable {
    /// Following the job over this channel now (SSE, polling, WebSocket) — also after a fallback.
    case channel(JobWatchChannel)
    /// Progress (deduplicated: a replayed SSE event is never reported twice).
    case progress(JobProgressUpdate)
    /// The connection dropped; reconnecting after this delay.
    case reconnecting(after: Duration, reason: String)
    /// The results, fetched after `completed`.
    case results(JobResults)
    /// The end: completed, failed, canceled, not found, unreachable…
    case finished(JobWatchOutcome)
}

/// Tuning of `watch` (defaults follow docs/contract.md §5).
package struct WatchOptions: Sendable {
    /// Fall back to polling after this many consecutive failed SSE connections.
    package var maxConsecutiveFailures: Int
    /// Poll interval of the status route.
    package var pollInterval: Duration
    /// Reconnection delay until the server sends `retry:`.
    package var defaultReconnectionTime: Duration
    /// Upper bound on any server-requested reconnection delay (tests shorten it).
    package var maxReconnectionTime: Duration
    /// Fetch the results on `completed`.
    package var fetchResults: Bool

    package init(
        maxConsecutiveFailures: Int = 3,
        pollInterval: Duration = .seconds(2),
        defaultReconnectionTime: Duration = .seconds(3),
        maxReconnectionTime: Duration = .seconds(30),
        fetchResults: Bool = true
    ) {
        self.maxConsecutiveFailures = maxConsecutiveFailures
        self.pollInterval = pollInterval
        self.defaultReconnectionTime = defaultReconnectionTime
        self.maxReconnectionTime = maxReconnectionTime
        self.fetchResults = fetchResults
    }
}
