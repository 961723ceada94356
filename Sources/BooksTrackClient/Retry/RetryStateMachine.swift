import BooksTrackSupport

/// The pure decision core of request retries (docs/contract.md §2), in the style of async-http-client's
/// `Transaction.StateMachine`: the transport reports each failed attempt and executes the returned action.
///
/// ```swift
/// var retry = RetryStateMachine(policy: .standard, startedAt: clock.now)
/// while true {
///     do { return try await send() }
///     catch { switch retry.failed(with: map(error), now: clock.now) {
///         case .retry(let delay, let attempt, let of, let reason): show(...); try await clock.sleep(for: delay)
///         case .giveUp(let reason): throw ... } }
/// }
/// ```
///
/// Rules: only retryable errors and transport failures are retried; 400/401/403/404 never;
/// `INTERNAL_ERROR` at most once; a request that creates work only with an idempotency key
/// (a connect failure, which never reached the server, is always safe); a server-told delay
/// (`Retry-After`, `retryAfterMs`) wins over backoff, and one beyond the remaining total-wait
/// budget gives up at once; otherwise exponential backoff with jitter from the injected random source.
package struct RetryStateMachine: Sendable {
    /// What the caller does next.
    package enum Action: Sendable, Equatable {
        /// Wait `after`, then make attempt number `attempt` of `of` (the first attempt is number 1).
        case retry(after: Duration, attempt: Int, of: Int, reason: RetryReason)
        /// Stop and report the last failure.
        case giveUp(GiveUpReason)

        /// A progress line that says the retry once: `"Too many requests: retrying 2/3 in 45 s…"`;
        /// nil for ``giveUp(_:)``.
        package var progressMessage: String? {
            guard case .retry(let delay, let attempt, let total, let reason) = self else { return nil }
            return "\(reason.cause): retrying \(attempt)/\(total) in \(RetryFormatting.seconds(delay))…"
        }
    }

    /// The policy in force.
    package let policy: RetryPolicy
    /// The request creates work on the server (POST enrich, batch, import).
    package let createsWork: Bool
    /// The request carries an idempotency key or client-made job id, reused on every attempt.
    package let hasIdempotencyKey: Bool
    /// When the first attempt started.
    package let startedAt: ContinuousClock.Instant

    /// The number of the attempt in flight (1 for the first).
    package private(set) var attempt = 1
    /// The last failure reported.
    package private(set) var lastFailure: RetryableFailure?
    /// How many times `INTERNAL_ERROR` was retried.
    package private(set) var internalErrorRetries = 0
    private var previousDelay: Duration?
    private var random: any RandomNumberGenerator & Sendable

    /// Creates the state machine for one logical request.
    /// - Parameters:
    ///   - policy: attempts, delays and budget.
    ///   - createsWork: true for a POST that starts work (it is then only retried with `hasIdempotencyKey`).
    ///   - hasIdempotencyKey: the request carries the same idempotency key / job id on every attempt.
    ///   - startedAt: the start of the first attempt (the total-wait budget counts from here).
    ///   - random: the jitter source (inject ``SplitMix64`` for reproducible delays).
    package init(
        policy: RetryPolicy = .standard,
        createsWork: Bool = false,
        hasIdempotencyKey: Bool = false,
        startedAt: ContinuousClock.Instant,
        random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
    ) {
        self.policy = policy
        self.createsWork = createsWork
        self.hasIdempotencyKey = hasIdempotencyKey
        self.startedAt = startedAt
        self.random = random
    }

    /// Reports that the attempt in flight failed; returns whether and when to try again.
    package mutating func failed(with failure: RetryableFailure, now: ContinuousClock.Instant) -> Action {
        lastFailure = failure
        let reason: RetryReason
        switch Self.classify(failure) {
        case .never:
            return .giveUp(.notRetryable(failure))
        case .retry(let retryReason):
            reason = retryReason
        }
        if createsWork, !hasIdempotencyKey, failure != .transport(.cannotConnect) {
            return .giveUp(.unsafeToRepeat(failure))
        }
        if reason == .internalError, internalErrorRetries >= 1 {
            return .giveUp(.internalErrorAlreadyRetried)
        }
        if attempt >= policy.maxAttempts {
            return .giveUp(.attemptsExhausted(attempts: attempt, last: reason))
        }
        let remaining = policy.maxTotalWait - (now - startedAt)
        let delay: Duration
        if let told = failure.retryAfter ?? Self.documentedWait(for: failure) {
            let told = max(.zero, told)
            guard told <= remaining else {
                return .giveUp(
                    .serverDelayBeyondBudget(requested: told, remaining: max(.zero, remaining), reason: reason)
                )
            }
            delay = told
        } else {
            guard remaining > .zero else {
                return .giveUp(.totalWaitExhausted(budget: policy.maxTotalWait, last: reason))
            }
            delay = min(backoff(retryNumber: attempt), remaining)
        }
        previousDelay = delay
        if reason == .internalError { internalErrorRetries += 1 }
        attempt += 1
        return .retry(after: delay, attempt: attempt, of: policy.maxAttempts, reason: reason)
    }

    /// The wait the seeds' contract documents when a 429 or 503 names none at all (no `Retry-After`,
    /// no `retryAfterMs`): 60 s for a rate limit, 30 s for an unavailable server — never a fraction of
    /// a second (three quick retries would only spend the budget again).
    static func documentedWait(for failure: RetryableFailure) -> Duration? {
        guard case .http(let status, _, _, let told) = failure, told == nil else { return nil }
        switch status {
        case 429: return .seconds(60)
        case 503: return .seconds(30)
        default: return nil
        }
    }

    /// The backoff delay before retry number `retryNumber` (1 for the first retry).
    private mutating func backoff(retryNumber: Int) -> Duration {
        let base = policy.baseDelay.wholeNanoseconds
        let cap = policy.maxDelay.wholeNanoseconds
        let exponent = min(max(0, retryNumber - 1), 40)
        let (scaled, overflow) = base.multipliedReportingOverflow(by: Int64(1) << Int64(exponent))
        let ceiling = min(cap, overflow ? cap : scaled)
        switch policy.jitter {
        case .none:
            return .nanoseconds(ceiling)
        case .full:
            return .nanoseconds(ceiling <= 0 ? 0 : Int64.random(in: 0...ceiling, using: &random))
        case .decorrelated:
            let previous = previousDelay?.wholeNanoseconds ?? base
            let (tripled, overflow3) = max(previous, base).multipliedReportingOverflow(by: 3)
            let upper = overflow3 ? cap : tripled
            let value = upper <= base ? base : Int64.random(in: base...upper, using: &random)
            return .nanoseconds(min(cap, value))
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating.
    var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? Int64.min : Int64.max }
        return scaled &+ attoseconds / 1_000_000_000
    }
}
