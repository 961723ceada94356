import BooksTrackContract
import BooksTrackSupport
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

extension BooksTrackAPI {
    /// Task-local retry observer: overrides the instance handler for calls made inside `withValue`.
    @TaskLocal package static var retryObserver: (@Sendable (RetryProgress) -> Void)?
    /// Task-local `--no-cache`: calls inside ask the server (nothing is answered from memory or
    /// disk, not even offline); their answers are still stored.
    @TaskLocal package static var bypassesCache = false
    /// Task-local: calls inside are answered from memory or the fresh disk cache, or fail with
    /// `BooksTrackError.notCached` without sending anything (a spent budget need not be waited for
    /// when the answer is at hand).
    @TaskLocal package static var answersOnlyFromCache = false
    /// Task-local: false for the calls the client makes on its own (the token keeper's refreshes),
    /// which are not its caller's exchanges (``lastExchange``).
    @TaskLocal static var recordsExchanges = true

    /// Runs one logical call: cache, coalescing, retries; returns a 2xx response or throws.
    ///
    /// A cacheable GET (a TTL from the call, or with a disk cache the seeds' TTL of its route) is
    /// answered from memory, else from the disk cache while fresh; a stale stored answer with an
    /// ETag is revalidated (`If-None-Match`, a 304 serves it again and refreshes its expiry), and
    /// any stored answer serves when the server cannot be reached (`answersOffline`). Each answer
    /// is recorded as the last exchange: a hit or offline answer here, the server's by
    /// `runWithRetries` (a revalidated one here again).
    func perform(_ spec: RequestSpec) async throws(BooksTrackError) -> CallOutcome {
        let started = ContinuousClock.now
        guard !isShutdown else {
            throw BooksTrackError(
                code: "CLIENT_SHUT_DOWN",
                kind: .other,
                message: "The API client was already shut down."
            )
        }
        var spec = spec
        let url = spec.url(base: configuration.baseURL)
        let disk = configuration.cachePolicy == .on && spec.isIdempotentRead ? configuration.responseCache : nil
        if disk != nil, spec.cacheTTL == nil {
            spec.cacheTTL = CacheSeeds.ttl(path: spec.path, mode: spec.queryValue("mode"), now: configuration.now())
        }
        let cacheable = ResponseCaching.isCacheable(spec, policy: configuration.cachePolicy)
        let reads = cacheable && !Self.bypassesCache
        if reads, let hit = cache.fresh(url, now: configuration.now()) {
            return cacheHit(hit, spec: spec, source: .memory, started: started)
        }
        var stored: ResponseDiskCache.Entry?
        let diskKey = ResponseCaching.diskKey(spec)
        if reads, let disk, let entry = disk.entry(for: diskKey, now: configuration.now()) {
            let now = configuration.now()
            if entry.isFresh(at: now) {
                let raw = ResponseCaching.raw(entry, url: SecretMasking.maskURL(url))
                cache.store(raw, for: url, expires: entry.expiresAt)
                statistics.diskHits += 1
                return cacheHit(
                    raw,
                    spec: spec,
                    source: .disk(age: ResponseCaching.age(of: entry, now: now)),
                    started: started
                )
            }
            stored = entry
            if let revalidation = ResponseCaching.revalidation(of: entry) { spec.headers.append(revalidation) }
        }
        if Self.answersOnlyFromCache { throw BooksTrackError.notCached(url: SecretMasking.maskURL(url)) }
        var outcome: CallOutcome
        do throws(BooksTrackError) {
            outcome = try await send(spec, url: url)
        } catch {
            guard let stored, answersOffline,
                let reason = CallRules.offlineReason(error, timeout: configuration.timeout)
            else { throw error }
            statistics.diskHits += 1
            let raw = ResponseCaching.raw(stored, url: SecretMasking.maskURL(url))
            return cacheHit(
                raw,
                spec: spec,
                source: .offline(age: ResponseCaching.age(of: stored, now: configuration.now()), reason: reason),
                started: started
            )
        }
        if outcome.raw.status == 304, let stored, let disk {
            statistics.revalidations += 1
            let now = configuration.now()
            let ttl = ResponseCaching.revalidatedLifetime(outcome.raw.headers, default: spec.cacheTTL)
            disk.revalidated(diskKey, now: now, expiresAt: now.addingTimeInterval(ttl))
            var raw = ResponseCaching.raw(stored, url: outcome.raw.url)
            raw.timeToHead = outcome.raw.timeToHead
            raw.duration = outcome.raw.duration
            var answered = raw
            answered.headers = HTTPExchange.revalidated(stored: raw.headers, notModified: outcome.raw.headers)
            record(spec, answered, cache: .revalidated, duration: raw.duration)
            outcome.raw = raw
            if ttl > 0 { cache.store(raw, for: url, expires: now.addingTimeInterval(ttl)) }
            return outcome
        }
        if let ttl = ResponseCaching.storedLifetime(
            of: outcome.raw,
            cacheable: cacheable,
            coalesced: outcome.coalesced,
            default: spec.cacheTTL
        ) {
            let now = configuration.now()
            cache.store(outcome.raw, for: url, expires: now.addingTimeInterval(ttl))
            disk?.store(ResponseCaching.entry(outcome.raw, key: diskKey, now: now, ttl: ttl))
        }
        return outcome
    }

    /// Sends `spec` (shared with an identical in-flight GET when coalescing) with retries.
    private func send(_ spec: RequestSpec, url: String) async throws(BooksTrackError) -> CallOutcome {
        guard spec.isIdempotentRead, configuration.coalescesRequests else {
            return try await runWithRetries(spec, url: url, onRetry: currentRetryObserver())
        }
        let key = CallRules.coalescingKey(spec, url: url)
        return try await shared(key: key, spec: spec, url: url, onRetry: currentRetryObserver())
    }

    func currentRetryObserver() -> (@Sendable (RetryProgress) -> Void)? {
        Self.retryObserver ?? retryHandler
    }

    func allocateRequestID() -> Int {
        nextRequestID += 1
        return nextRequestID
    }
}
