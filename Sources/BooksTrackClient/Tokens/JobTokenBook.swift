import BooksTrackContract
import Foundation

/// The job tokens this client holds, and when each must be refreshed (docs/contract.md §6: a token lives
/// `JobTimings.tokenLifetime` and `POST /api/token/refresh` accepts it only in its last
/// `JobTimings.tokenRefreshWindow`). Pure: times are passed in.
///
/// A job's token is recorded when the job is accepted, replaced when a refresh succeeds, and
/// dropped when the job ends (cancelled, completed, failed) or the token can no longer be refreshed.
struct JobTokenBook: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var token: String
        var expiresAt: Date
        /// Do not try before this time (after a refused or failed refresh).
        var notBefore: Date?
        /// The job ended: the token is kept for reading, never refreshed.
        var finished = false
        /// Earlier tokens of the job, replaced by refreshes.
        var superseded: Set<String> = []
    }

    /// A token's assumed lifetime when the server did not say.
    var lifetime: TimeInterval
    /// How long before expiry a refresh is accepted.
    var window: TimeInterval
    /// Refresh this long after the window opens, so a slightly slower client clock is still inside it.
    var margin: TimeInterval = 5

    private(set) var entries: [String: Entry] = [:]

    init(
        lifetime: TimeInterval = JobTimings.tokenLifetime.timeInterval,
        window: TimeInterval = JobTimings.tokenRefreshWindow.timeInterval
    ) {
        self.lifetime = lifetime
        self.window = window
    }

    /// The token to use for `jobID` now (nil when unknown or expired).
    func token(for jobID: String, now: Date) -> String? {
        guard let entry = entries[jobID], entry.expiresAt > now else { return nil }
        return entry.token
    }

    /// A job was accepted with `token` (or a refresh returned it, valid for `expiresIn` seconds).
    mutating func record(_ jobID: String, token: String, expiresIn: TimeInterval? = nil, now: Date) {
        guard !token.isEmpty else { return }
        let previous = entries[jobID]
        var superseded = previous?.superseded ?? []
        if let old = previous?.token, old != token { superseded.insert(old) }
        entries[jobID] = Entry(
            token: token,
            expiresAt: now.addingTimeInterval(expiresIn ?? lifetime),
            finished: previous?.finished ?? false,
            superseded: superseded
        )
    }

    /// The token to present for `jobID` when the caller holds `given`: the current one replaces a
    /// token this book knows was superseded (or a missing one); any other token is the caller's choice.
    func presentable(for jobID: String, given: String?, now: Date) -> String? {
        guard let current = token(for: jobID, now: now) else { return given }
        guard let given else { return current }
        return entries[jobID]?.superseded.contains(given) == true ? current : given
    }

    /// The job ended: its token is no longer refreshed.
    mutating func finish(_ jobID: String) {
        entries[jobID]?.finished = true
    }

    /// A refresh did not succeed. `retryAfter`: when to try again (nil: the token cannot be
    /// refreshed any more, e.g. the server said it expired or does not match).
    mutating func refreshFailed(_ jobID: String, retryAfter: TimeInterval?, now: Date) {
        guard var entry = entries[jobID] else { return }
        if let retryAfter {
            entry.notBefore = now.addingTimeInterval(max(1, retryAfter))
        } else {
            entry.finished = true
        }
        entries[jobID] = entry
    }

    /// When `entry` may first be refreshed.
    private func opens(_ entry: Entry) -> Date {
        let opening = entry.expiresAt.addingTimeInterval(-window + min(margin, window / 2))
        if let notBefore = entry.notBefore { return max(opening, notBefore) }
        return opening
    }

    private func isLive(_ entry: Entry, now: Date) -> Bool {
        !entry.finished && entry.expiresAt > now
    }

    /// The jobs whose token should be refreshed now, with the token to present.
    func due(now: Date) -> [(jobID: String, token: String)] {
        entries.filter { isLive($0.value, now: now) && opens($0.value) <= now }
            .sorted { $0.key < $1.key }
            .map { (jobID: $0.key, token: $0.value.token) }
    }

    /// When the next refresh falls due (nil: nothing to refresh).
    func nextDue(now: Date) -> Date? {
        entries.values.filter { isLive($0, now: now) }.map(opens).min()
    }
}
