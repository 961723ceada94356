/// How often and how long the client retries a failed request (docs/contract.md §2).
package struct RetryPolicy: Sendable, Equatable {
    /// How backoff delays are randomised.
    package enum Jitter: Sendable, Equatable {
        /// Plain exponential backoff: `min(maxDelay, baseDelay · 2^(n-1))`.
        case none
        /// "Full jitter": uniformly random in `0 … min(maxDelay, baseDelay · 2^(n-1))`.
        case full
        /// "Decorrelated jitter": uniformly random in `baseDelay … 3 · previous delay`, capped at `maxDelay`.
        case decorrelated
    }

    /// Total attempts, the first one included (so 3 means "at most 2 retries"). At least 1.
    package var maxAttempts: Int
    /// The first backoff step.
    package var baseDelay: Duration
    /// The longest backoff delay (a server-told `Retry-After` is not capped by it, only by ``maxTotalWait``).
    package var maxDelay: Duration
    /// The longest time from the start of the first attempt until a retry may start.
    package var maxTotalWait: Duration
    /// The jitter strategy for backoff delays.
    package var jitter: Jitter

    /// Creates a policy; the defaults are the client's defaults.
    package init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(20),
        maxTotalWait: Duration = .seconds(90),
        jitter: Jitter = .full
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = max(.zero, baseDelay)
        self.maxDelay = max(.zero, maxDelay)
        self.maxTotalWait = max(.zero, maxTotalWait)
        self.jitter = jitter
    }

    /// The client's default policy: 3 attempts, 0.5 s base, 20 s cap, 90 s total, full jitter.
    package static let standard = RetryPolicy()

    /// A policy that never retries.
    package static let never = RetryPolicy(maxAttempts: 1)
}
