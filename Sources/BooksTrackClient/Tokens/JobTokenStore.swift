import BooksTrackContract
import Foundation

/// The job tokens a client holds and the refreshes of them under way: the pure ``JobTokenBook`` (which
/// token, until when, what falls due), the refreshes in flight per job with who waits for them to end,
/// and when a refused or failed refresh is tried again. No I/O: ``BooksTrackAPI`` owns the store, sends
/// the refreshes and resumes the waiters this hands back.
struct JobTokenStore: Sendable {
    /// The tokens and their refresh times.
    var book: JobTokenBook
    /// Refreshes in flight per job, and who waits for them to end.
    private var refreshes: [String: (count: Int, waiters: [CheckedContinuation<Void, Never>])] = [:]

    init(lifetime: TimeInterval, window: TimeInterval) {
        book = JobTokenBook(lifetime: lifetime, window: window)
    }

    /// A refresh of `jobID`'s token was sent.
    mutating func refreshStarted(_ jobID: String) {
        refreshes[jobID, default: (0, [])].count += 1
    }

    /// A refresh of `jobID`'s token ended (answered or not): the waiters to resume, once none is left.
    mutating func refreshEnded(_ jobID: String) -> [CheckedContinuation<Void, Never>] {
        guard var entry = refreshes[jobID] else { return [] }
        entry.count -= 1
        guard entry.count <= 0 else {
            refreshes[jobID] = entry
            return []
        }
        refreshes[jobID] = nil
        return entry.waiters
    }

    /// Whether a refresh of `jobID`'s token is in flight.
    func isRefreshing(_ jobID: String) -> Bool {
        refreshes[jobID] != nil
    }

    /// How many wait for the refreshes of `jobID`'s token in flight to end.
    func waiterCount(_ jobID: String) -> Int {
        refreshes[jobID]?.waiters.count ?? 0
    }

    /// `waiter` goes on when the refreshes of `jobID`'s token in flight have ended (at once when none is).
    mutating func waitForRefresh(_ jobID: String, _ waiter: CheckedContinuation<Void, Never>) {
        guard refreshes[jobID] != nil else {
            waiter.resume()
            return
        }
        refreshes[jobID]?.waiters.append(waiter)
    }

    /// A refresh of `jobID`'s token failed with `error`: tried again later, still inside the refresh
    /// window (at most a sixth of it away), or given up (``refreshRetryDelay(after:)``).
    mutating func refreshFailed(_ jobID: String, error: BooksTrackError, now: Date) {
        let delay = Self.refreshRetryDelay(after: error).map { min($0, max(1, book.window / 6)) }
        book.refreshFailed(jobID, retryAfter: delay, now: now)
    }

    /// When to try a failed refresh again: never after a hard 401/404 (expired, replaced, unknown job);
    /// otherwise after a minute (or what the server asked). Production answers 401 also for two soft
    /// refusals (websocket-connection.ts refreshAuthToken): "Refresh not allowed yet" (outside the
    /// last 30 min) and "Refresh in progress, please retry shortly": those are retried.
    static func refreshRetryDelay(after error: BooksTrackError) -> TimeInterval? {
        if isSoftRefreshRefusal(error) {
            if let told = error.retryAfter { return max(1, told.timeInterval) }
            let text = (error.apiError?.message ?? error.detail).lowercased()
            return text.contains("in progress") ? 5 : 30
        }
        if error.httpStatus == 401 || error.httpStatus == 404 || error.code == .unauthorized { return nil }
        if let told = error.retryAfter { return max(1, told.timeInterval) }
        return 60
    }

    /// A 401 that means "not now" rather than "never": production's "Refresh not allowed yet" and
    /// "Refresh in progress" refusals.
    static func isSoftRefreshRefusal(_ error: BooksTrackError) -> Bool {
        guard error.httpStatus == 401 || error.code == .unauthorized else { return false }
        let text = (error.apiError?.message ?? error.detail).lowercased()
        return text.contains("not allowed yet") || text.contains("in progress")
    }
}
