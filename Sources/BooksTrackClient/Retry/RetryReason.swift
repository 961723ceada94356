/// Why a failed attempt is being retried.
package enum RetryReason: Sendable, Equatable, Hashable {
    /// 429 `RATE_LIMIT_EXCEEDED`.
    case rateLimited
    /// `CIRCUIT_OPEN`: the upstream provider is down for a while.
    case circuitOpen
    /// `INTERNAL_ERROR` / HTTP 500 (retried at most once).
    case internalError
    /// Another retryable server error (502/503/504, `PROVIDER_ERROR`, `NETWORK_ERROR`, …).
    case serverError(status: Int, code: String?)
    /// The request's deadline passed (or HTTP 408).
    case timeout
    /// The connection failed or broke.
    case network

    /// What went wrong, without any promise of a retry: the start of a retry line.
    package var cause: String {
        switch self {
        case .rateLimited: return "Too many requests"
        case .circuitOpen: return "Provider temporarily unavailable"
        case .internalError: return "The server had an internal error"
        case .serverError(let status, let code): return "Server error (\(code ?? "HTTP \(status)"))"
        case .timeout: return "The request timed out"
        case .network: return "Connection lost"
        }
    }

    /// User-facing wording (docs/contract.md §2), given the delay before the next attempt.
    package func userMessage(delay: Duration) -> String {
        let wait = RetryFormatting.seconds(delay)
        switch self {
        case .rateLimited: return "Too many requests. Please wait \(wait)."
        case .circuitOpen: return "The book provider is temporarily unavailable. Retrying in \(wait)…"
        case .internalError: return "The server had an internal error. Retrying in \(wait)…"
        case .serverError(let status, let code):
            return "Server error (\(code ?? "HTTP \(status)")). Retrying in \(wait)…"
        case .timeout: return "The request timed out. Retrying…"
        case .network: return "Connection lost. Retrying…"
        }
    }
}

/// Why the client stops retrying.
package enum GiveUpReason: Sendable, Equatable, Hashable {
    /// The failure is not retryable (400/401/403/404, `retryable: false`, other client errors).
    case notRetryable(RetryableFailure)
    /// The request creates work and has no idempotency key, so repeating it could do the work twice.
    case unsafeToRepeat(RetryableFailure)
    /// `INTERNAL_ERROR` was already retried once.
    case internalErrorAlreadyRetried
    /// All attempts of the policy were used.
    case attemptsExhausted(attempts: Int, last: RetryReason)
    /// The server asked for a longer wait than the remaining total-wait budget.
    case serverDelayBeyondBudget(requested: Duration, remaining: Duration, reason: RetryReason)
    /// The total-wait budget is used up.
    case totalWaitExhausted(budget: Duration, last: RetryReason)

    /// A short explanation for the user or the trace.
    package var message: String {
        switch self {
        case .notRetryable: return "not retryable"
        case .unsafeToRepeat:
            return "not retried: the request creates work and carries no idempotency key"
        case .internalErrorAlreadyRetried: return "internal server error persisted after one retry"
        case .attemptsExhausted(let attempts, _): return "gave up after \(attempts) attempts"
        case .serverDelayBeyondBudget(let requested, let remaining, _):
            return "server asked to wait \(RetryFormatting.seconds(requested)), more than the "
                + "\(RetryFormatting.seconds(remaining)) left of the retry budget"
        case .totalWaitExhausted(let budget, _):
            return "gave up: retry budget of \(RetryFormatting.seconds(budget)) used up"
        }
    }
}

/// Formatting of delays for progress lines ("retrying 2/3 in 45 s…").
package enum RetryFormatting {
    /// `"45 s"` (rounded up to whole seconds), or `"250 ms"` below one second.
    package static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        if milliseconds < 1000 { return "\(max(0, milliseconds)) ms" }
        return "\((milliseconds + 999) / 1000) s"
    }
}

extension Duration {
    /// The duration in whole milliseconds, truncated.
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1000).overflow
            ? Int64.max : seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
