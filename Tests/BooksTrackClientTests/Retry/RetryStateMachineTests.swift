import BooksTrackClient
import BooksTrackContract
import BooksTrackSupport
import Testing

private let t0 = ContinuousClock.now

private func machine(
    _ policy: RetryPolicy = RetryPolicy(jitter: .none),
    createsWork: Bool = false,
    key: Bool = false,
    seed: UInt64 = 1
) -> RetryStateMachine {
    RetryStateMachine(
        policy: policy,
        createsWork: createsWork,
        hasIdempotencyKey: key,
        startedAt: t0,
        random: SplitMix64(seed: seed)
    )
}

private func at(_ seconds: Double) -> ContinuousClock.Instant { t0.advanced(by: .seconds(seconds)) }

struct NeverRetried: Sendable, CustomTestStringConvertible {
    let failure: RetryableFailure
    var testDescription: String { "\(failure)" }
}

@Suite("RetryStateMachine")
struct RetryStateMachineTests {
    @Test(arguments: [
        NeverRetried(failure: .http(status: 400, code: "INVALID_ISBN", retryable: false)),
        NeverRetried(failure: .http(status: 400, code: nil, retryable: true)),  // status wins over a bogus flag
        NeverRetried(failure: .http(status: 401, code: "UNAUTHORIZED")),
        NeverRetried(failure: .http(status: 403)),
        NeverRetried(failure: .http(status: 404, code: "NOT_FOUND", retryable: true, retryAfter: .seconds(1))),
        NeverRetried(failure: .http(status: 413, code: "FILE_TOO_LARGE")),
        NeverRetried(failure: .http(status: 422)),
        NeverRetried(failure: .http(status: 503, code: "FEATURE_NOT_AVAILABLE", retryable: false)),
        NeverRetried(failure: .http(status: 503, code: "FEATURE_NOT_AVAILABLE")),
        NeverRetried(failure: .http(status: 502, code: "PROVIDER_ERROR", retryable: false)),
        NeverRetried(failure: .http(status: 501)),
        NeverRetried(failure: .http(status: 302)),
    ])
    func neverRetried(_ input: NeverRetried) {
        var retry = machine()
        #expect(retry.failed(with: input.failure, now: at(0)) == .giveUp(.notRetryable(input.failure)))
        #expect(retry.attempt == 1)
    }

    @Test func backoffWithoutJitterDoublesAndStopsAtMaxAttempts() {
        var retry = machine(RetryPolicy(maxAttempts: 4, baseDelay: .seconds(1), maxDelay: .seconds(3), jitter: .none))
        let failure = RetryableFailure.http(status: 502, code: "PROVIDER_ERROR", retryable: true)
        let reason = RetryReason.serverError(status: 502, code: "PROVIDER_ERROR")
        #expect(
            retry.failed(with: failure, now: at(0)) == .retry(after: .seconds(1), attempt: 2, of: 4, reason: reason)
        )
        #expect(
            retry.failed(with: failure, now: at(2)) == .retry(after: .seconds(2), attempt: 3, of: 4, reason: reason)
        )
        #expect(
            retry.failed(with: failure, now: at(5)) == .retry(after: .seconds(3), attempt: 4, of: 4, reason: reason)
        )
        #expect(retry.failed(with: failure, now: at(9)) == .giveUp(.attemptsExhausted(attempts: 4, last: reason)))
    }

    @Test func defaultIsThreeAttempts() {
        var retry = RetryStateMachine(startedAt: t0, random: SplitMix64(seed: 3))
        #expect(retry.policy.maxAttempts == 3)
        guard case .retry(_, 2, 3, .network) = retry.failed(with: .transport(.connectionLost), now: at(0)) else {
            Issue.record("expected retry 2/3")
            return
        }
        guard case .retry(_, 3, 3, .timeout) = retry.failed(with: .transport(.timeout), now: at(1)) else {
            Issue.record("expected retry 3/3")
            return
        }
        #expect(
            retry.failed(with: .transport(.timeout), now: at(2))
                == .giveUp(.attemptsExhausted(attempts: 3, last: .timeout))
        )
    }

    @Test func serverToldDelayWinsOverBackoffAndIsNotCappedByMaxDelay() {
        var retry = machine(RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(5), jitter: .none))
        let action = retry.failed(
            with: .http(
                status: 429,
                code: "RATE_LIMIT_EXCEEDED",
                retryable: true,
                retryAfter: .seconds(45)
            ),
            now: at(0)
        )
        #expect(action == .retry(after: .seconds(45), attempt: 2, of: 3, reason: .rateLimited))
        #expect(action.progressMessage == "Too many requests: retrying 2/3 in 45 s…")
    }

    @Test func serverDelayBeyondBudgetGivesUpClearly() {
        var retry = machine(RetryPolicy(maxTotalWait: .seconds(60), jitter: .none))
        let failure = RetryableFailure.http(
            status: 503,
            code: "CIRCUIT_OPEN",
            retryable: true,
            retryAfter: .seconds(50)
        )
        #expect(
            retry.failed(with: failure, now: at(20))
                == .giveUp(
                    .serverDelayBeyondBudget(requested: .seconds(50), remaining: .seconds(40), reason: .circuitOpen)
                )
        )
        #expect(
            GiveUpReason.serverDelayBeyondBudget(requested: .seconds(50), remaining: .seconds(40), reason: .circuitOpen)
                .message == "server asked to wait 50 s, more than the 40 s left of the retry budget"
        )
    }

    @Test func circuitOpenOnProduction429IsCircuitOpen() {
        var retry = machine()
        let action = retry.failed(
            with: .http(
                status: 429,
                code: "CIRCUIT_OPEN",
                retryable: true,
                retryAfter: .milliseconds(1500)
            ),
            now: at(0)
        )
        #expect(action == .retry(after: .milliseconds(1500), attempt: 2, of: 3, reason: .circuitOpen))
        #expect(action.progressMessage == "Provider temporarily unavailable: retrying 2/3 in 2 s…")
    }

    @Test func backoffIsClampedToRemainingBudgetThenExhausted() {
        var retry = machine(
            RetryPolicy(
                maxAttempts: 10,
                baseDelay: .seconds(4),
                maxDelay: .seconds(60),
                maxTotalWait: .seconds(10),
                jitter: .none
            )
        )
        let failure = RetryableFailure.transport(.connectionLost)
        #expect(
            retry.failed(with: failure, now: at(7)) == .retry(after: .seconds(3), attempt: 2, of: 10, reason: .network)
        )
        #expect(
            retry.failed(with: failure, now: at(10))
                == .giveUp(.totalWaitExhausted(budget: .seconds(10), last: .network))
        )
    }

    @Test func internalErrorRetriedAtMostOnce() {
        var retry = machine(RetryPolicy(maxAttempts: 5, jitter: .none))
        let internalError = RetryableFailure.http(status: 500, code: "INTERNAL_ERROR", retryable: true)
        guard case .retry(_, 2, 5, .internalError) = retry.failed(with: internalError, now: at(0)) else {
            Issue.record("first internal error must be retried")
            return
        }
        // Another kind of failure in between is still retried …
        guard case .retry(_, 3, 5, .network) = retry.failed(with: .transport(.connectionLost), now: at(1)) else {
            Issue.record("network failure must be retried")
            return
        }
        // … but a second internal error (bare 500 counts too) is not.
        #expect(retry.failed(with: .http(status: 500), now: at(2)) == .giveUp(.internalErrorAlreadyRetried))
    }

    @Test func workCreatingPostNeedsIdempotencyKey() {
        let failure = RetryableFailure.http(status: 502, code: "API_ERROR", retryable: true)
        var unkeyed = machine(createsWork: true, key: false)
        #expect(unkeyed.failed(with: failure, now: at(0)) == .giveUp(.unsafeToRepeat(failure)))
        var lost = machine(createsWork: true, key: false)
        #expect(lost.failed(with: .transport(.timeout), now: at(0)) == .giveUp(.unsafeToRepeat(.transport(.timeout))))
        var keyed = machine(createsWork: true, key: true)
        guard case .retry(_, 2, 3, _) = keyed.failed(with: failure, now: at(0)) else {
            Issue.record("keyed POST must be retried")
            return
        }
        // A connection that was never made did no work: safe even without a key.
        var refused = machine(createsWork: true, key: false)
        guard case .retry(_, 2, 3, .network) = refused.failed(with: .transport(.cannotConnect), now: at(0)) else {
            Issue.record("connect failure must be retried")
            return
        }
    }

    @Test func proxyErrorsWithoutCodeAreRetried() {
        for status in [502, 504] {
            var retry = machine()
            #expect(
                retry.failed(with: .http(status: status), now: at(0))
                    == .retry(
                        after: .milliseconds(500),
                        attempt: 2,
                        of: 3,
                        reason: .serverError(status: status, code: nil)
                    )
            )
        }
        // A 503 or 429 that names no wait at all waits what the seeds document (30 s, 60 s), not a
        // fraction of a second; a told wait still wins.
        var unavailable = machine()
        #expect(
            unavailable.failed(with: .http(status: 503), now: at(0))
                == .retry(after: .seconds(30), attempt: 2, of: 3, reason: .serverError(status: 503, code: nil))
        )
        var limited = machine()
        #expect(
            limited.failed(with: .http(status: 429), now: at(0))
                == .retry(after: .seconds(60), attempt: 2, of: 3, reason: .rateLimited)
        )
        var told = machine()
        #expect(
            told.failed(with: .http(status: 503, retryAfter: .seconds(2)), now: at(0))
                == .retry(after: .seconds(2), attempt: 2, of: 3, reason: .serverError(status: 503, code: nil))
        )
        var timeout = machine()
        guard case .retry(_, 2, 3, .timeout) = timeout.failed(with: .http(status: 408), now: at(0)) else {
            Issue.record("408 is a timeout")
            return
        }
    }

    @Test func fullJitterStaysWithinBoundsAndIsReproducible() {
        let policy = RetryPolicy(
            maxAttempts: 6,
            baseDelay: .seconds(1),
            maxDelay: .seconds(8),
            maxTotalWait: .seconds(1000),
            jitter: .full
        )
        func delays(seed: UInt64) -> [Duration] {
            var retry = machine(policy, seed: seed)
            return (0..<5).compactMap { step in
                if case .retry(let delay, _, _, _) = retry.failed(with: .transport(.timeout), now: at(Double(step))) {
                    return delay
                }
                return nil
            }
        }
        for seed in UInt64(0)..<50 {
            let got = delays(seed: seed)
            #expect(got.count == 5)
            for (index, delay) in got.enumerated() {
                let ceiling = min(8.0, pow2(index))
                #expect(delay >= .zero && delay <= .seconds(ceiling), "seed \(seed) retry \(index + 1): \(delay)")
            }
            #expect(got == delays(seed: seed))
        }
        #expect(delays(seed: 1) != delays(seed: 2))
    }

    @Test func decorrelatedJitterStaysWithinBounds() {
        let policy = RetryPolicy(
            maxAttempts: 8,
            baseDelay: .seconds(1),
            maxDelay: .seconds(10),
            maxTotalWait: .seconds(1000),
            jitter: .decorrelated
        )
        for seed in UInt64(0)..<50 {
            var retry = machine(policy, seed: seed)
            var previous: Duration = .seconds(1)
            for step in 0..<7 {
                guard case .retry(let delay, _, _, _) = retry.failed(with: .transport(.timeout), now: at(Double(step)))
                else {
                    Issue.record("expected retry")
                    return
                }
                #expect(delay >= .seconds(1) && delay <= .seconds(10))
                #expect(delay <= previous * 3)
                previous = delay
            }
        }
    }

    @Test func formattingOfDelays() {
        #expect(RetryFormatting.seconds(.milliseconds(250)) == "250 ms")
        #expect(RetryFormatting.seconds(.seconds(45)) == "45 s")
        #expect(RetryFormatting.seconds(.milliseconds(44_001)) == "45 s")
        #expect(RetryReason.network.userMessage(delay: .seconds(1)) == "Connection lost. Retrying…")
        #expect(
            RetryReason.circuitOpen.userMessage(delay: .seconds(2))
                == "The book provider is temporarily unavailable. Retrying in 2 s…"
        )
    }

    @Test func neverPolicyGivesUpOnFirstFailure() {
        var retry = RetryStateMachine(policy: .never, startedAt: t0)
        #expect(
            retry.failed(with: .transport(.timeout), now: at(0))
                == .giveUp(.attemptsExhausted(attempts: 1, last: .timeout))
        )
    }
}

private func pow2(_ exponent: Int) -> Double {
    (0..<exponent).reduce(1.0) { value, _ in value * 2 }
}
