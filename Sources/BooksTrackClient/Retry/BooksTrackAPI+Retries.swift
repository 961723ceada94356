import BooksTrackContract
import BooksTrackSupport
import Foundation
import NIOCore
import NIOHTTP1

extension BooksTrackAPI {
    /// Sends attempts until a 2xx arrives or the retry state machine gives up.
    func runWithRetries(
        _ spec: RequestSpec,
        url: String,
        onRetry: (@Sendable (RetryProgress) -> Void)?
    ) async throws(BooksTrackError) -> CallOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        let random: any RandomNumberGenerator & Sendable
        if var rng = jitter {
            random = SplitMix64(seed: rng.next())
            jitter = rng
        } else {
            random = SystemRandomNumberGenerator()
        }
        var machine = RetryStateMachine(
            policy: spec.retries ? retryPolicy : .never,
            createsWork: spec.createsWork,
            hasIdempotencyKey: spec.hasIdempotencyKey,
            startedAt: start,
            random: random
        )
        let requestID = allocateRequestID()
        let predicted = spec.rateLimitClass
        var attempt = 1
        while true {
            if Task.isCancelled { throw BooksTrackError.cancelled(url: SecretMasking.maskURL(url)) }
            statistics.requestsSent += 1
            if let cls = predicted { ledger.recordRequest(cls) }
            var failure: BooksTrackError
            do {
                let raw = try await transport.send(spec, url: url, requestID: requestID, attempt: attempt)
                record(spec, raw, cache: .miss, duration: raw.duration)
                let observation = observe(raw, predicted: predicted)
                if CallRules.isAnswer(status: raw.status, to: spec) {
                    return CallOutcome(
                        raw: raw,
                        attempts: attempt,
                        duration: clock.now - start,
                        rateLimit: observation,
                        requestClass: predicted
                    )
                }
                failure = BooksTrackError.fromResponse(
                    status: raw.status,
                    headers: raw.headers,
                    body: raw.body,
                    url: raw.url,
                    notFoundMessage: spec.notFoundMessage
                )
                failure.responseBody = Data(raw.body.readableBytesView)
            } catch {
                failure = error
            }
            failure.attempts = attempt
            failure.dropRetryPromise()
            // A shut-down client's in-flight request fails with its transport and is not retried.
            if failure.isCancellation || isShutdown { throw failure }
            // Bounded by kind: a refused connect and the request's own deadline end the call at once
            // (retrying them would turn a 1 s answer into 30 s, a 30 s deadline into a multiple of it).
            if failure.endsCallAtOnce { throw failure }
            switch machine.failed(with: failure.retryableFailure, now: clock.now) {
            case .giveUp(let reason):
                if attempt > 1 || !(reason.isPlainRefusal) { failure.gaveUp = reason }
                throw failure
            case .retry(let delay, let next, let total, let reason):
                statistics.retries += 1
                let action = RetryStateMachine.Action.retry(after: delay, attempt: next, of: total, reason: reason)
                let progress = RetryProgress(
                    attempt: next,
                    of: total,
                    delay: delay,
                    reason: reason,
                    url: failure.url ?? "",
                    message: action.progressMessage ?? reason.userMessage(delay: delay)
                )
                onRetry?(progress)
                if let trace = configuration.trace {
                    trace(
                        TraceEvent(
                            phase: .retry,
                            requestID: requestID,
                            attempt: next,
                            method: spec.method.rawValue,
                            url: failure.url ?? "",
                            status: failure.httpStatus,
                            duration: delay,
                            error: progress.message
                        )
                    )
                }
                do { try await configuration.sleep(delay) } catch {
                    throw BooksTrackError.cancelled(url: failure.url)
                }
                attempt = next
            }
        }
    }
}

extension GiveUpReason {
    /// True when the failure was simply not retryable (nothing was attempted again).
    var isPlainRefusal: Bool {
        if case .notRetryable = self { return true }
        return false
    }
}
