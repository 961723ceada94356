import BooksTrackContract
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

extension BooksTrackAPI {
    /// A call answered without a request (memory or disk): counted, traced, recorded as the last
    /// exchange (a hit, or offline; `started`: when the call began), no budget spent.
    func cacheHit(
        _ raw: RawResponse,
        spec: RequestSpec,
        source: ResponseSource,
        started: ContinuousClock.Instant
    ) -> CallOutcome {
        statistics.cacheHits += 1
        if case .offline = source {
            record(spec, raw, cache: .offline, duration: ContinuousClock.now - started)
        } else {
            record(spec, raw, cache: .hit, duration: ContinuousClock.now - started)
        }
        if let trace = configuration.trace {
            trace(
                TraceEvent(
                    phase: .response,
                    requestID: allocateRequestID(),
                    method: spec.method.rawValue,
                    url: raw.url,
                    status: raw.status,
                    cacheHit: true
                )
            )
        }
        return CallOutcome(
            raw: raw,
            attempts: 0,
            duration: .zero,
            cacheHit: true,
            source: source,
            requestClass: spec.rateLimitClass
        )
    }

    /// Records `raw` as the last exchange, unless the call is one the client makes on its own
    /// (``recordsExchanges`` off).
    func record(_ spec: RequestSpec, _ raw: RawResponse, cache: CacheOutcome, duration: Duration) {
        guard Self.recordsExchanges else { return }
        exchanges.record(
            HTTPExchange(
                method: spec.method.rawValue,
                url: raw.url,
                status: raw.status,
                duration: duration,
                cache: cache,
                responseHeaders: raw.headers
            )
        )
    }

    /// The largest body kept in the memory and disk caches. A search answer of 400,000 results
    /// (15 MB) was cached whole and decoded again at every cached hit, as slowly as the first time;
    /// the contract's answers are far smaller (100 results: about 100 KB).
    static let maxCachedBodyBytes = 2 * 1024 * 1024

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
            status: entry.status,
            headers: headers,
            body: ByteBuffer(bytes: entry.body),
            url: url,
            timeToHead: .zero,
            duration: .zero
        )
    }

    /// What the disk keeps of a response: status, body, the harmless headers, the ETag.
    static func entry(_ raw: RawResponse, key: String, now: Date, ttl: TimeInterval) -> ResponseDiskCache.Entry {
        let kept = raw.headers.filter { ResponseDiskCache.keptHeaders.contains($0.name.lowercased()) }
            .map { HeaderField(name: $0.name, value: $0.value) }
        return ResponseDiskCache.Entry(
            key: key,
            status: raw.status,
            headers: kept,
            body: Data(buffer: raw.body),
            etag: raw.headers.first(name: "etag"),
            storedAt: now,
            expiresAt: now.addingTimeInterval(ttl),
            lastUsedAt: now
        )
    }
}

extension ErrorCode {
    /// The client's own code: `answersOnlyFromCache` met a call it would have had to send.
    static let notCached: ErrorCode = "NOT_CACHED"
}

extension BooksTrackError {
    /// `answersOnlyFromCache` met a call it would have had to send.
    static func notCached(url: String) -> BooksTrackError {
        BooksTrackError(code: .notCached, kind: .other, message: "Not in the cache.", url: url)
    }
}
