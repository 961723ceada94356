/// The outcome of counting one request against a rule.
package struct RateLimitDecision: Sendable, Hashable {
    /// Whether the request may proceed (it was counted) or must be refused (it was not).
    package var allowed: Bool
    /// The rule's limit (`X-RateLimit-Limit`).
    package var limit: Int
    /// Requests left in the current window after this one (`X-RateLimit-Remaining`).
    package var remaining: Int
    /// When the current window ends, in epoch seconds (`X-RateLimit-Reset`).
    package var resetEpochSeconds: Int
    /// Seconds until the window ends, at least 1 (`Retry-After` on a 429).
    package var retryAfterSeconds: Int
}

/// A pure fixed-window counter: the first request of a key opens a window of the rule's length;
/// up to `limit` requests are allowed in it; the window (and the count) resets when it has elapsed.
/// No clock, no locks, no I/O: the caller passes `now` (epoch seconds) and keeps the value.
package struct FixedWindowCounter<Key: Hashable & Sendable>: Sendable {
    struct Window: Sendable, Hashable {
        var start: Double
        var length: Double
        var count: Int
    }

    private(set) var windows: [Key: Window] = [:]
    /// Sweep expired windows once this many keys are held (bounds memory under many clients).
    package var sweepThreshold: Int

    package init(sweepThreshold: Int = 10_000) {
        self.sweepThreshold = max(1, sweepThreshold)
    }

    /// Number of keys with a window (expired ones may linger until the next sweep).
    package var trackedKeys: Int { windows.count }

    /// Counts one request of `key` under `rule` at time `now` when there is room.
    package mutating func hit(_ key: Key, rule: RateLimitRule, now: Double) -> RateLimitDecision {
        if windows.count >= sweepThreshold { sweep(now: now) }
        let length = Double(rule.windowSeconds)
        var window = windows[key] ?? Window(start: now, length: length, count: 0)
        if now >= window.start + window.length || now < window.start {
            window = Window(start: now, length: length, count: 0)
        }
        let allowed = window.count < rule.limit
        if allowed { window.count += 1 }
        windows[key] = window
        let reset = window.start + window.length
        let retry = max(1, Int((reset - now).rounded(.up)))
        return RateLimitDecision(
            allowed: allowed,
            limit: rule.limit,
            remaining: max(0, rule.limit - window.count),
            resetEpochSeconds: Int(reset.rounded(.up)),
            retryAfterSeconds: retry
        )
    }

    /// Drops every window that has ended by `now`.
    package mutating func sweep(now: Double) {
        windows = windows.filter { now < $0.value.start + $0.value.length }
    }
}
