import BooksTrackContract
import Foundation

/// The client's book-keeping of server rate limits, per budget class (docs/contract.md §3, §7). Pure: the
/// clock is injected (`clock`, or an explicit `now:` on every call), nothing sleeps.
///
/// - Seed it from capabilities (or the documented table) with ``seed(_:requests:per:now:)``.
/// - Call ``recordRequest(_:now:)`` for each request sent (an optimistic decrement) and
///   ``record(_:for:now:)`` with each response's ``RateLimitObservation``: headers replace any guess
///   ("trust headers over tables"); a 429 blocks the class until its `Retry-After`.
/// - Ask ``decision(for:now:)`` before sending and ``tightest(now:includeFull:)`` for the prompt.
///
/// Production keeps one counter per client IP across classes. With shared-counter semantics in force
/// (``assumesSharedCounter``, or detected when a class the headers said had budget left gets a 429),
/// every response's headers also update the shared counter and a 429 on any class blocks them all.
package struct RateLimitLedger: Sendable {
    struct Window: Sendable, Equatable {
        var limit: Int?
        var remaining: Int?
        var resetAt: Date?
        var length: TimeInterval?
        var blockedUntil: Date?
        var source: RateLimitBudget.Source = .unknown

        /// The window as it stands at `now`: expired blocks cleared, a passed reset refilled.
        func refreshed(at now: Date) -> Window {
            var window = self
            if let blocked = window.blockedUntil, blocked <= now { window.blockedUntil = nil }
            if let reset = window.resetAt, reset <= now {
                window.resetAt = nil
                window.remaining = window.limit
            }
            return window
        }

        var budget: RateLimitBudget {
            RateLimitBudget(
                limit: limit,
                remaining: remaining,
                resetAt: resetAt,
                blockedUntil: blockedUntil,
                source: source
            )
        }
    }

    private var windows = RateLimitTable<Window>()
    private var shared = Window()

    /// The injected clock used when a call passes no `now`.
    package let clock: @Sendable () -> Date
    /// Treat the server as keeping one counter for all classes (production does).
    package var assumesSharedCounter: Bool
    /// A 429 arrived on a class whose headers said it had budget left: the counter is shared.
    package private(set) var sharedCounterDetected = false
    /// How long a 429 without any delay information blocks.
    package var fallbackBlock: Duration

    /// Whether shared-counter semantics are in force.
    package var usesSharedCounter: Bool { assumesSharedCounter || sharedCounterDetected }

    /// Creates an empty ledger.
    /// - Parameters:
    ///   - assumesSharedCounter: start with shared-counter semantics (for a production server).
    ///   - fallbackBlock: the block after a 429 that carries no delay at all.
    ///   - clock: the wall clock, used when a call passes no `now`.
    package init(
        assumesSharedCounter: Bool = false,
        fallbackBlock: Duration = .seconds(5),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.assumesSharedCounter = assumesSharedCounter
        self.fallbackBlock = fallbackBlock
        self.clock = clock
    }

    // MARK: - Learning

    /// Seeds a class from capabilities (`requests` per `window`). Never overrides what headers taught;
    /// re-seeding with the same numbers keeps the current count.
    package mutating func seed(_ rateLimitClass: RateLimitClass, requests: Int, per window: Duration, now: Date? = nil)
    {
        let now = now ?? clock()
        var current = (windows[rateLimitClass] ?? Window()).refreshed(at: now)
        let length = window.timeInterval > 0 ? window.timeInterval : nil
        if current.source == .headers {
            if current.length == nil { current.length = length }
        } else if current.source == .unmetered {
            // The server's responses carry no budget: a table (or capabilities) is no reason to hold back.
        } else if current.source != .seeded || current.limit != requests || current.length != length {
            current = Window(
                limit: max(0, requests),
                remaining: max(0, requests),
                resetAt: nil,
                length: length,
                blockedUntil: current.blockedUntil,
                source: .seeded
            )
        }
        windows[rateLimitClass] = current
    }

    /// The server says it meters nothing (capabilities' `rate_limits_enabled: false`, the embedded
    /// backend's default): every class guessed from a table stops counting down; numbers learned
    /// from headers and blocks from a 429 are kept.
    package mutating func markUnmetered(now: Date? = nil) {
        let now = now ?? clock()
        for budgetClass in BudgetClass.allCases {
            let key = RateLimitClass.known(budgetClass)
            let window = (windows[key] ?? Window()).refreshed(at: now)
            if window.source == .seeded || window.source == .unknown {
                windows[key] = Window(blockedUntil: window.blockedUntil, source: .unmetered)
            }
        }
    }

    /// Seeds every class of the documented table (docs/contract.md §7).
    package mutating func seedDocumentedLimits(now: Date? = nil) {
        for (rateLimitClass, limit) in RateLimitClass.documentedLimits {
            seed(rateLimitClass, requests: limit.requests, per: limit.window, now: now)
        }
    }

    /// Records a request sent in `rateLimitClass`: one less left in its window and in the global one.
    package mutating func recordRequest(_ rateLimitClass: RateLimitClass, now: Date? = nil) {
        let now = now ?? clock()
        var classes: [RateLimitClass] = [rateLimitClass]
        if rateLimitClass != .global { classes.append(.global) }
        for key in classes {
            windows[key] = Self.consume((windows[key] ?? Window()).refreshed(at: now), now: now)
        }
        if usesSharedCounter { shared = Self.consume(shared.refreshed(at: now), now: now) }
    }

    private static func consume(_ window: Window, now: Date) -> Window {
        var window = window
        if let remaining = window.remaining { window.remaining = max(0, remaining - 1) }
        if window.resetAt == nil, let length = window.length, window.remaining != nil {
            window.resetAt = now.addingTimeInterval(length)
        }
        return window
    }

    /// Records what a response of `rateLimitClass` said. Headers replace the class's numbers; a 429
    /// blocks the class (and, with shared-counter semantics, every class) until the server-told time.
    package mutating func record(
        _ observation: RateLimitObservation,
        for rateLimitClass: RateLimitClass,
        now: Date? = nil
    ) {
        let now = now ?? clock()
        var window = (windows[rateLimitClass] ?? Window()).refreshed(at: now)
        if observation.reportsNoBudget {
            // A response without any rate-limit header: trust the server over the table. A seeded
            // guess stops counting down (the stand-in with `--rate-limits off` would otherwise be
            // throttled at 100 searches a minute by the client alone); learned numbers are kept.
            if window.source == .seeded || window.source == .unknown {
                windows[rateLimitClass] = Window(blockedUntil: window.blockedUntil, source: .unmetered)
                if rateLimitClass != .global {
                    let global = (windows[.global] ?? Window()).refreshed(at: now)
                    if global.source == .seeded || global.source == .unknown {
                        windows[.global] = Window(blockedUntil: global.blockedUntil, source: .unmetered)
                    }
                }
            }
            return
        }
        let knewBudgetLeft = window.source == .headers && (window.remaining ?? 0) >= 1 && window.blockedUntil == nil
        Self.apply(observation, to: &window, now: now)
        if observation.status == 429 {
            let until = now.addingTimeInterval(
                Self.blockDuration(
                    observation,
                    window: window,
                    now: now,
                    fallback: fallbackBlock
                ).timeInterval
            )
            window.blockedUntil = max(window.blockedUntil ?? until, until)
            window.remaining = 0
            window.source = .headers
            // Without a known reset, the window is taken to end with the block, so it refills then.
            if window.resetAt == nil { window.resetAt = window.blockedUntil }
            if knewBudgetLeft { sharedCounterDetected = true }
            if usesSharedCounter { shared.blockedUntil = max(shared.blockedUntil ?? until, until) }
        }
        if usesSharedCounter {
            var sharedWindow = shared.refreshed(at: now)
            Self.apply(observation, to: &sharedWindow, now: now)
            shared = sharedWindow
        }
        windows[rateLimitClass] = window
    }

    private static func apply(_ observation: RateLimitObservation, to window: inout Window, now: Date) {
        if let limit = observation.limit {
            window.limit = limit
            window.source = .headers
        }
        if let remaining = observation.remaining {
            window.remaining = window.limit.map { min(remaining, $0) } ?? remaining
            window.source = .headers
        }
        if var reset = observation.resetAt {
            // `X-RateLimit-Reset` has whole-second resolution (rounded up by the server), so a
            // 60 s window read just after it opened seems to end in 60.9 s ("resets in 61 s"):
            // a window never ends later than its length from now.
            if let length = window.length, reset > now.addingTimeInterval(length) {
                reset = now.addingTimeInterval(length)
            }
            window.resetAt = reset
        }
    }

    private static func blockDuration(
        _ observation: RateLimitObservation,
        window: Window,
        now: Date,
        fallback: Duration
    ) -> Duration {
        if let told = observation.retryAfter { return max(.zero, told) }
        if let reset = observation.resetAt ?? window.resetAt, reset > now { return .between(now, reset) }
        return fallback
    }

    // MARK: - Answers

    /// What is known about `rateLimitClass` at `now`.
    package func budget(for rateLimitClass: RateLimitClass, now: Date? = nil) -> RateLimitBudget {
        let now = now ?? clock()
        return (windows[rateLimitClass] ?? Window()).refreshed(at: now).budget
    }

    /// Whether a request of `rateLimitClass` may go now: it consults the class, the global budget and,
    /// with shared-counter semantics, the shared counter.
    package func decision(for rateLimitClass: RateLimitClass, now: Date? = nil) -> RateLimitDecision {
        let now = now ?? clock()
        var relevant = [(windows[rateLimitClass] ?? Window()).refreshed(at: now)]
        if rateLimitClass != .global { relevant.append((windows[.global] ?? Window()).refreshed(at: now)) }
        if usesSharedCounter { relevant.append(shared.refreshed(at: now)) }
        var waitUntil: Date?
        var exhaustedWithoutReset = false
        for window in relevant {
            if let blocked = window.blockedUntil {
                waitUntil = max(waitUntil ?? blocked, blocked)
            } else if let remaining = window.remaining, remaining <= 0 {
                if let reset = window.resetAt {
                    waitUntil = max(waitUntil ?? reset, reset)
                } else {
                    exhaustedWithoutReset = true
                }
            }
        }
        if let waitUntil { return .wait(.between(now, waitUntil)) }
        if exhaustedWithoutReset { return .unknown }
        if relevant.allSatisfy({ $0.source == .unknown || $0.remaining == nil }) { return .unknown }
        return .proceed
    }

    /// The class with the least budget left (blocked first), for the prompt; nil when nothing is known
    /// or, unless `includeFull`, when every known budget is untouched.
    package func tightest(now: Date? = nil, includeFull: Bool = false) -> RateLimitStatus? {
        let now = now ?? clock()
        let candidates = windows.entries.compactMap { key, window -> (RateLimitClass, RateLimitBudget, Double)? in
            let budget = window.refreshed(at: now).budget
            guard budget.source != .unknown, let fraction = budget.fractionLeft else { return nil }
            return (key, budget, fraction)
        }
        let best = candidates.min { lhs, rhs in
            if lhs.2 != rhs.2 { return lhs.2 < rhs.2 }
            if (lhs.1.remaining ?? 0) != (rhs.1.remaining ?? 0) {
                return (lhs.1.remaining ?? 0) < (rhs.1.remaining ?? 0)
            }
            return lhs.0 < rhs.0
        }
        guard let best, includeFull || best.2 < 1 else { return nil }
        return RateLimitStatus(rateLimitClass: best.0, budget: best.1)
    }
}
