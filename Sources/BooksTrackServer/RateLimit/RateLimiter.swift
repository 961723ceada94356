import BooksTrackContract
import Foundation
import Synchronization

/// The server's rate limiter: per client and per class, fixed windows (see `FixedWindowCounter`),
/// with an injected clock so tests can move time instead of sleeping. Thread-safe.
package final class RateLimiter: Sendable {
    /// Epoch seconds now.
    package typealias EpochClock = @Sendable () -> Double

    struct Key: Hashable, Sendable {
        var client: String
        var limitClass: BudgetClass
    }

    /// The rules in force; a class without a rule is not limited. Empty when limits are off.
    package let rules: [BudgetClass: RateLimitRule]
    private let clock: EpochClock
    private let counter = Mutex(FixedWindowCounter<Key>())

    /// - Parameters:
    ///   - rules: limit per class (absent classes are unlimited).
    ///   - clock: epoch seconds; defaults to the system clock.
    package init(rules: [BudgetClass: RateLimitRule], clock: @escaping EpochClock = { Date().timeIntervalSince1970 }) {
        self.rules = rules
        self.clock = clock
    }

    /// Counts one request of `client` in `limitClass`; `nil` when that class is not limited.
    package func check(_ limitClass: BudgetClass, client: String) -> RateLimitDecision? {
        guard let rule = rules[limitClass] else { return nil }
        let now = clock()
        return counter.withLock { $0.hit(Key(client: client, limitClass: limitClass), rule: rule, now: now) }
    }
}
