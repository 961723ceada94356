import Foundation

/// What the client knows about one budget class right now.
package struct RateLimitBudget: Sendable, Equatable {
    /// Where the numbers come from.
    package enum Source: String, Sendable, Equatable {
        /// Learned from `X-RateLimit-*` headers or a 429 (trusted over any table).
        case headers
        /// Seeded from capabilities or the documented table (a guess until headers arrive).
        case seeded
        /// The server answered this class without any rate-limit headers: it reports no budget, so
        /// the client holds nothing back (the documented numbers are not enforced on its behalf).
        case unmetered
        /// Nothing known.
        case unknown
    }

    /// Requests per window, when known.
    package var limit: Int?
    /// Requests left in the current window (optimistically decremented per request sent), when known.
    package var remaining: Int?
    /// When the current window ends, when known.
    package var resetAt: Date?
    /// Until when the server told us to stop (a 429), when in force.
    package var blockedUntil: Date?
    /// Where the numbers come from.
    package var source: Source

    /// Creates a budget.
    package init(
        limit: Int? = nil,
        remaining: Int? = nil,
        resetAt: Date? = nil,
        blockedUntil: Date? = nil,
        source: Source = .unknown
    ) {
        self.limit = limit
        self.remaining = remaining
        self.resetAt = resetAt
        self.blockedUntil = blockedUntil
        self.source = source
    }

    /// The fraction of the budget left (0 when blocked), or nil when unknown.
    package var fractionLeft: Double? {
        if blockedUntil != nil { return 0 }
        guard let limit, let remaining, limit > 0 else { return nil }
        return Double(min(remaining, limit)) / Double(limit)
    }
}

/// Whether to send a request of some class now.
package enum RateLimitDecision: Sendable, Equatable {
    /// The budget allows it.
    case proceed
    /// The budget is used up or the server said to stop: wait this long first.
    case wait(Duration)
    /// Nothing is known about this class: send, and learn from the response.
    case unknown
}

/// The tightest budget, for the prompt.
package struct RateLimitStatus: Sendable, Equatable {
    /// The class.
    package var rateLimitClass: RateLimitClass
    /// Its budget.
    package var budget: RateLimitBudget

    /// Creates a status.
    package init(rateLimitClass: RateLimitClass, budget: RateLimitBudget) {
        self.rateLimitClass = rateLimitClass
        self.budget = budget
    }

    /// A compact form for the prompt: `"semantic 1/5 ↻42s"` (`"?"` for unknown numbers; no `↻` part
    /// when the reset time is unknown; minutes or hours for long waits).
    package func formatted(now: Date) -> String {
        let remaining = budget.blockedUntil != nil ? "0" : budget.remaining.map(String.init) ?? "?"
        let limit = budget.limit.map(String.init) ?? "?"
        var text = "\(rateLimitClass.rawValue) \(remaining)/\(limit)"
        let until = [budget.blockedUntil, budget.resetAt].compactMap { $0 }.max()
        if let until, until > now {
            text += " ↻" + Self.shortDuration(until.timeIntervalSince(now))
        }
        return text
    }

    /// `42s`, `12m`, `3h` (rounded up).
    static func shortDuration(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 100 { return "\(whole)s" }
        if whole < 100 * 60 { return "\((whole + 59) / 60)m" }
        return "\((whole + 3_599) / 3_600)h"
    }
}
