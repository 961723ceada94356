import BooksTrackContract
import BooksTrackSupport
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

extension BooksTrackAPI {
    /// Task-local retry observer: overrides the instance handler for calls made inside `withValue`.
    @TaskLocal public static var retryObserver: (@Sendable (RetryProgress) -> Void)?
    /// Task-local `--no-cache`: calls inside ask the server (nothing is answered from memory or
    /// disk, not even offline); their answers are still stored.
    @TaskLocal public static var bypassesCache = false
    /// Task-local: calls inside are answered from memory or the fresh disk cache, or fail with
    /// `BooksTrackError.notCached` without sending anything (a spent budget need not be waited for
    /// when the answer is at hand).
    @TaskLocal public static var answersOnlyFromCache = false

    /// Runs one logical call: cache, coalescing, retries; returns a 2xx response or throws.
    ///
    /// A cacheable GET (a TTL from the call, or with a disk cache the seeds' TTL of its route) is
    /// answered from memory, else from the disk cache while fresh; a stale stored answer with an
    /// ETag is revalidated (`If-None-Match`, a 304 serves it again and refreshes its expiry), and
    /// any stored answer serves when the server cannot be reached (`answersOffline`).
    func perform(_ spec: RequestSpec) async throws(BooksTrackError) -> CallOutcome {
        guard !isShutdown else {
            throw BooksTrackError(
                code: "CLIENT_SHUT_DOWN", kind: .other, message: "The API client was already shut down.")
        }
        var spec = spec
        let url = spec.url(base: configuration.baseURL)
        let disk = configuration.cachePolicy == .on && spec.isIdempotentRead ? configuration.responseCache : nil
        if disk != nil, spec.cacheTTL == nil {
            spec.cacheTTL = CacheSeeds.ttl(path: spec.path, mode: spec.queryValue("mode"), now: configuration.now())
        }
        let cacheable = spec.isIdempotentRead && spec.cacheTTL != nil && configuration.cachePolicy == .on
        let reads = cacheable && !Self.bypassesCache
        if reads, let hit = cache.fresh(url, now: configuration.now()) {
            return cacheHit(hit, spec: spec, source: .memory)
        }
        var stored: ResponseDiskCache.Entry?
        let diskKey = Self.diskKey(spec)
        if reads, let disk, let entry = disk.entry(for: diskKey, now: configuration.now()) {
            let now = configuration.now()
            if entry.isFresh(at: now) {
                let raw = Self.raw(entry, url: SecretMasking.maskURL(url))
                cache.store(raw, for: url, expires: entry.expiresAt)
                statistics.diskHits += 1
                return cacheHit(raw, spec: spec, source: .disk(age: Self.age(of: entry, now: now)))
            }
            stored = entry
            if let etag = entry.etag { spec.headers.append(HeaderField(name: "If-None-Match", value: etag)) }
        }
        if Self.answersOnlyFromCache { throw BooksTrackError.notCached(url: SecretMasking.maskURL(url)) }
        var outcome: CallOutcome
        do throws(BooksTrackError) {
            outcome = try await send(spec, url: url)
        } catch {
            guard let stored, answersOffline, let reason = offlineReason(error) else { throw error }
            statistics.diskHits += 1
            let raw = Self.raw(stored, url: SecretMasking.maskURL(url))
            return cacheHit(
                raw, spec: spec, source: .offline(age: Self.age(of: stored, now: configuration.now()), reason: reason))
        }
        if outcome.raw.status == 304, let stored, let disk {
            statistics.revalidations += 1
            let now = configuration.now()
            let ttl = Self.cacheLifetime(outcome.raw.headers, default: spec.cacheTTL) ?? 0
            disk.revalidated(diskKey, now: now, expiresAt: now.addingTimeInterval(ttl))
            var raw = Self.raw(stored, url: outcome.raw.url)
            raw.timeToHead = outcome.raw.timeToHead
            raw.duration = outcome.raw.duration
            outcome.raw = raw
            if ttl > 0 { cache.store(raw, for: url, expires: now.addingTimeInterval(ttl)) }
            return outcome
        }
        // Another origin's answer (a redirect left the server) is not cached as the server's, nor
        // is an answer larger than `maxCachedBodyBytes`.
        if cacheable, !outcome.coalesced, !outcome.raw.crossedOrigin,
            outcome.raw.body.readableBytes <= Self.maxCachedBodyBytes,
            let ttl = Self.cacheLifetime(outcome.raw.headers, default: spec.cacheTTL)
        {
            let now = configuration.now()
            cache.store(outcome.raw, for: url, expires: now.addingTimeInterval(ttl))
            disk?.store(Self.entry(outcome.raw, key: diskKey, now: now, ttl: ttl))
        }
        return outcome
    }

    /// Sends `spec` (shared with an identical in-flight GET when coalescing) with retries.
    private func send(_ spec: RequestSpec, url: String) async throws(BooksTrackError) -> CallOutcome {
        guard spec.isIdempotentRead, configuration.coalescesRequests else {
            return try await runWithRetries(spec, url: url, onRetry: currentRetryObserver())
        }
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
        return try await shared(key: key, spec: spec, url: url, onRetry: currentRetryObserver())
    }

    /// A call answered without a request (memory or disk): counted, traced, no budget spent.
    private func cacheHit(_ raw: RawResponse, spec: RequestSpec, source: ResponseSource) -> CallOutcome {
        statistics.cacheHits += 1
        if let trace = configuration.trace {
            trace(
                TraceEvent(
                    phase: .response, requestID: allocateRequestID(), method: spec.method.rawValue,
                    url: raw.url, status: raw.status, cacheHit: true))
        }
        return CallOutcome(
            raw: raw, attempts: 0, duration: .zero, cacheHit: true, source: source, requestClass: spec.rateLimitClass)
    }

    /// The largest body kept in the memory and disk caches. A search answer of 400,000 results
    /// (15 MB) was cached whole and decoded again at every cached hit, as slowly as the first time;
    /// the contract's answers are far smaller (100 results: about 100 KB).
    static let maxCachedBodyBytes = 2 * 1024 * 1024

    /// Whether `error` is the one `answersOnlyFromCache` throws for a call it would have sent.
    public static func isNotCached(_ error: any Error) -> Bool {
        (error as? BooksTrackError)?.code.rawValue == "NOT_CACHED"
    }

    /// Why `error` means the server cannot be reached ("connection refused", "timed out after 30 s"),
    /// nil for any other failure (an answer, even an error, is not offline).
    func offlineReason(_ error: BooksTrackError) -> String? {
        guard error.httpStatus == nil else { return nil }
        switch error.kind {
        case .timeout:
            return "the request timed out after \(Int(configuration.timeout.timeInterval.rounded())) s"
        case .dns: return "the server's host name did not resolve"
        case .connection: return "the server could not be reached (\(error.retryableFailure == .transport(.cannotConnect) ? "connection refused" : "connection lost"))"
        default: return nil
        }
    }

    /// The disk cache's key of a request: method and target, secrets masked (no base URL: the file
    /// is per backend).
    static func diskKey(_ spec: RequestSpec) -> String {
        "\(spec.method.rawValue) \(SecretMasking.maskURL(spec.target))"
    }

    static func age(of entry: ResponseDiskCache.Entry, now: Date) -> Duration {
        .seconds(max(0, now.timeIntervalSince(entry.storedAt)))
    }

    /// A stored answer as a response (status 200 for a 304's body).
    static func raw(_ entry: ResponseDiskCache.Entry, url: String) -> RawResponse {
        var headers = HTTPHeaders()
        for field in entry.headers { headers.add(name: field.name, value: field.value) }
        return RawResponse(
            status: entry.status, headers: headers, body: ByteBuffer(bytes: entry.body), url: url, timeToHead: .zero,
            duration: .zero)
    }

    /// What the disk keeps of a response: status, body, the harmless headers, the ETag.
    static func entry(_ raw: RawResponse, key: String, now: Date, ttl: TimeInterval) -> ResponseDiskCache.Entry {
        let kept = raw.headers.filter { ResponseDiskCache.keptHeaders.contains($0.name.lowercased()) }
            .map { HeaderField(name: $0.name, value: $0.value) }
        return ResponseDiskCache.Entry(
            key: key, status: raw.status, headers: kept, body: Data(buffer: raw.body), etag: raw.headers.first(name: "etag"),
            storedAt: now, expiresAt: now.addingTimeInterval(ttl), lastUsedAt: now)
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
    /// (a task of its own per request would cost every lookup a task's creation) and every joiner
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
                // A 304 answers a revalidation (`If-None-Match`): the caller serves its stored body.
                if (200..<300).contains(raw.status)
                    || (raw.status == 304 && spec.headers.contains { $0.name == "If-None-Match" }) {
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

extension BooksTrackError {
    /// `answersOnlyFromCache` met a call it would have had to send.
    static func notCached(url: String) -> BooksTrackError {
        BooksTrackError(code: "NOT_CACHED", kind: .other, message: "Not in the cache.", url: url)
    }
}
