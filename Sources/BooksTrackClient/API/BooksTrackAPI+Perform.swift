import BooksTrackContract
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

extension BooksTrackAPI {
    /// Task-local retry observer: overrides the instance handler for calls made inside `withValue`.
    @TaskLocal public static var retryObserver: (@Sendable (RetryProgress) -> Void)?

    /// Runs one logical call: cache, coalescing, retries; returns a 2xx response or throws.
    func perform(_ spec: RequestSpec) async throws(BooksTrackError) -> CallOutcome {
        guard !isShutdown else {
            throw BooksTrackError(
                code: "CLIENT_SHUT_DOWN", kind: .other, message: "The API client was already shut down.")
        }
        let url = spec.url(base: configuration.baseURL)
        let cacheable = spec.isIdempotentRead && spec.cacheTTL != nil && configuration.cachePolicy == .on
        if cacheable, let hit = cache.fresh(url, now: configuration.now()) {
            statistics.cacheHits += 1
            if let trace = configuration.trace {
                trace(
                    TraceEvent(
                        phase: .response, requestID: allocateRequestID(), method: spec.method.rawValue,
                        url: hit.url, status: hit.status, cacheHit: true))
            }
            return CallOutcome(raw: hit, attempts: 0, duration: .zero, cacheHit: true, requestClass: spec.rateLimitClass)
        }
        let outcome: CallOutcome
        if spec.isIdempotentRead, configuration.coalescesRequests {
            var key = spec.method.rawValue
            key += " "
            key += url
            key += " "
            key += spec.accept
            for header in spec.headers {
                key += ";"
                key += header.name
                key += "="
                key += header.value
            }
            outcome = try await shared(key: key, spec: spec, url: url, onRetry: currentRetryObserver())
        } else {
            outcome = try await runWithRetries(spec, url: url, onRetry: currentRetryObserver())
        }
        if cacheable, !outcome.coalesced, let ttl = Self.cacheLifetime(outcome.raw.headers, default: spec.cacheTTL) {
            cache.store(outcome.raw, for: url, expires: configuration.now().addingTimeInterval(ttl))
        }
        return outcome
    }

    func currentRetryObserver() -> (@Sendable (RetryProgress) -> Void)? {
        Self.retryObserver ?? retryHandler
    }

    func allocateRequestID() -> Int {
        nextRequestID += 1
        return nextRequestID
    }

    /// `Cache-Control: max-age` (seconds), `no-store`/`no-cache` → not cached, else the default (a
    /// client is a private cache: `private` responses may be kept). Read by bytes (RFC 9111 §5.2):
    /// directives split at commas, optional whitespace around each, names in any case, `max-age`'s
    /// delta-seconds as digits (also quoted); the first readable `max-age` counts.
    static func cacheLifetime(_ headers: HTTPHeaders, default fallback: Duration?) -> TimeInterval? {
        var maxAge: Int?
        for (name, value) in headers where name.utf8.count == 13 && isASCII(name[...], ignoringCase: "cache-control") {
            var bytes = value.utf8[...]
            while !bytes.isEmpty {
                let end = bytes.firstIndex(of: UInt8(ascii: ",")) ?? bytes.endIndex
                let directive = bytes[..<end].trimmingASCIIWhitespace()
                bytes = end == bytes.endIndex ? bytes[end...] : bytes[bytes.index(after: end)...]
                if isASCII(directive, ignoringCase: "no-store") || isASCII(directive, ignoringCase: "no-cache") {
                    return nil
                }
                if maxAge == nil, directive.count > 8, isASCII(directive.prefix(8), ignoringCase: "max-age=") {
                    maxAge = deltaSeconds(directive.dropFirst(8))
                }
            }
        }
        if let maxAge { return maxAge > 0 ? TimeInterval(maxAge) : nil }
        return fallback.map { $0.timeInterval }
    }

    /// RFC 9111 delta-seconds: digits, in quotes or not; a value beyond 2^31 reads as 2^31
    /// (§1.2.2); anything else is not a number (`nil`).
    static func deltaSeconds(_ bytes: Substring.UTF8View.SubSequence) -> Int? {
        var digits = bytes
        if digits.count >= 2, digits.first == UInt8(ascii: "\""), digits.last == UInt8(ascii: "\"") {
            digits = digits.dropFirst().dropLast()
        }
        guard !digits.isEmpty else { return nil }
        let limit = 1 << 31
        var value = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = min(limit, value * 10 + Int(byte - UInt8(ascii: "0")))
        }
        return value
    }

    /// `text` is the lowercase ASCII `word` in any case.
    static func isASCII(_ text: Substring, ignoringCase word: StaticString) -> Bool {
        isASCII(text.utf8[...], ignoringCase: word)
    }

    /// The bytes `text` are the lowercase ASCII `word` in any case.
    static func isASCII(_ text: Substring.UTF8View.SubSequence, ignoringCase word: StaticString) -> Bool {
        guard text.count == word.utf8CodeUnitCount else { return false }
        for (offset, byte) in text.enumerated() {
            let lower = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
            if lower != word.utf8Start[offset] { return false }
        }
        return true
    }

    // MARK: - Coalescing

    /// Joins the identical in-flight GET, or leads it: the leader runs the request in its own task
    /// (a task per request cost ~17k instructions of a ~340k lookup, callgrind) and every joiner
    /// gets the same result. A cancelled joiner leaves at once and the request goes on; a
    /// cancelled leader ends its request, and its joiners start again (one of them leading a new
    /// request).
    func shared(
        key: String, spec: RequestSpec, url: String, onRetry: (@Sendable (RetryProgress) -> Void)?
    ) async throws(BooksTrackError) -> CallOutcome {
        while true {
            if let existing = flights[key], existing.acceptsJoiners {
                statistics.coalesced += 1
                nextWaiterID += 1
                let waiterID = nextWaiterID
                do {
                    // The continuation's body may run off the actor, even after the request ended:
                    // the flight keeps its result for late joiners (FlightStateMachine).
                    var outcome = try await withTaskCancellationHandler {
                        try await withCheckedThrowingContinuation { (continuation: Flight.Waiter) in
                            existing.join(id: waiterID, continuation, isCancelled: Task.isCancelled)
                        }
                    } onCancel: {
                        existing.leave(id: waiterID)
                    }
                    outcome.coalesced = true
                    return outcome
                } catch let error as BooksTrackError {
                    throw error
                } catch is Flight.Abandoned {
                    statistics.coalesced -= 1
                    continue
                } catch {
                    throw BooksTrackError.cancelled(url: SecretMasking.maskURL(url))
                }
            }
            let flight = Flight()
            flights[key] = flight
            let result: Result<CallOutcome, BooksTrackError>
            do throws(BooksTrackError) {
                result = .success(try await runWithRetries(spec, url: url, onRetry: onRetry))
            } catch {
                result = .failure(error)
            }
            if flights[key] === flight { flights[key] = nil }
            if case .failure(let error) = result, error.isCancellation {
                flight.abandon()
            } else {
                flight.finish(result)
            }
            return try result.get()
        }
    }

    // MARK: - Retries

    /// Sends attempts until a 2xx arrives or the retry state machine gives up.
    func runWithRetries(
        _ spec: RequestSpec, url: String, onRetry: (@Sendable (RetryProgress) -> Void)?
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
            policy: spec.retries ? retryPolicy : .never, createsWork: spec.createsWork,
            hasIdempotencyKey: spec.hasIdempotencyKey, startedAt: start, random: random)
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
                let observation = observe(raw, predicted: predicted)
                if (200..<300).contains(raw.status) {
                    return CallOutcome(
                        raw: raw, attempts: attempt, duration: clock.now - start, rateLimit: observation,
                        requestClass: predicted)
                }
                failure = BooksTrackError.fromResponse(
                    status: raw.status, headers: raw.headers, body: raw.body, url: raw.url,
                    notFoundMessage: spec.notFoundMessage)
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
                    attempt: next, of: total, delay: delay, reason: reason, url: failure.url ?? "",
                    message: action.progressMessage ?? reason.userMessage(delay: delay))
                onRetry?(progress)
                if let trace = configuration.trace {
                    trace(
                        TraceEvent(
                            phase: .retry, requestID: requestID, attempt: next, method: spec.method.rawValue,
                            url: failure.url ?? "", status: failure.httpStatus, duration: delay,
                            error: progress.message))
                }
                do { try await configuration.sleep(delay) } catch {
                    throw BooksTrackError.cancelled(url: failure.url)
                }
                attempt = next
            }
        }
    }

    /// Feeds the rate-limit ledger from a response's headers, under the class the server names in
    /// `X-RateLimit-Class` when it names one (the server's word wins), else the `predicted` one;
    /// returns what the headers said (the response's info reuses it).
    @discardableResult
    func observe(_ raw: RawResponse, predicted: RateLimitClass?) -> RateLimitObservation {
        let now = configuration.now()
        var bodyRetryAfter: Duration?
        if raw.status == 429 || raw.status == 503 {
            let data = Data(buffer: raw.body, byteTransferStrategy: .noCopy)
            if let ms = ResponseDecoding.decode(JSONValue.self, from: data, status: raw.status).errorInfo?.retryAfterMs {
                bodyRetryAfter = .milliseconds(Int64(ms))
            }
        }
        let observation = RateLimitObservation(
            status: raw.status, headers: raw.headers, bodyRetryAfter: bodyRetryAfter, now: now)
        guard let cls = observation.rateLimitClass ?? predicted else { return observation }
        // An unlimited route's silence says nothing about the class its header names.
        if predicted == nil, observation.reportsNoBudget { return observation }
        guard observation.limit != nil || observation.remaining != nil || observation.status == 429
            || observation.reportsNoBudget
        else { return observation }
        // A CIRCUIT_OPEN 429 (production) is an upstream outage, not our budget.
        if raw.status == 429, bodyRetryAfter != nil,
            ResponseDecoding.decode(JSONValue.self, from: Data(buffer: raw.body), status: 429).errorInfo?.code == .circuitOpen
        {
            return observation
        }
        ledger.record(observation, for: cls, now: now)
        return observation
    }
}

extension GiveUpReason {
    /// True when the failure was simply not retryable (nothing was attempted again).
    var isPlainRefusal: Bool {
        if case .notRetryable = self { return true }
        return false
    }
}
