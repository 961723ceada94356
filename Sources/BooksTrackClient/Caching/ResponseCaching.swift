import BooksTrackContract
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// The response cache's decisions, without I/O: which calls read and store answers, for how long
/// (`Cache-Control`, `ResponseCaching+CacheControl`), how a stale answer is revalidated, and how an
/// answer is kept on disk and served again. ``BooksTrackAPI/perform(_:)`` holds the caches and does
/// what these say.
package enum ResponseCaching {
    /// Whether a call's answers are cached at all: an idempotent read with a lifetime (its own, or
    /// the seeds' for its route), with caching on.
    static func isCacheable(_ spec: RequestSpec, policy: APIConfiguration.CachePolicy) -> Bool {
        spec.isIdempotentRead && spec.cacheTTL != nil && policy == .on
    }

    /// How long a fresh answer is kept, or nil when it is not: not a cacheable call's, shared with
    /// another caller (that one stores it), from another origin (a redirect left the server), over
    /// ``maxCachedBodyBytes``, or refused by its `Cache-Control`.
    static func storedLifetime(
        of raw: RawResponse,
        cacheable: Bool,
        coalesced: Bool,
        default fallback: Duration?
    ) -> TimeInterval? {
        guard cacheable, !coalesced, !raw.crossedOrigin, raw.body.readableBytes <= maxCachedBodyBytes else {
            return nil
        }
        return lifetime(raw.headers, default: fallback)
    }

    /// How long a stored answer the server confirmed unchanged (304) is fresh again: its new
    /// `Cache-Control`, else the call's lifetime; 0 (stale at once) when neither gives one.
    package static func revalidatedLifetime(_ notModified: HTTPHeaders, default fallback: Duration?) -> TimeInterval {
        lifetime(notModified, default: fallback) ?? 0
    }

    /// The `If-None-Match` that revalidates a stale stored answer (none without an ETag).
    package static func revalidation(of stored: ResponseDiskCache.Entry) -> HeaderField? {
        stored.etag.map { HeaderField(name: "If-None-Match", value: $0) }
    }

    /// The largest body kept in the memory and disk caches. A search answer of 400,000 results
    /// (15 MB) was cached whole and decoded again at every cached hit, as slowly as the first time;
    /// the contract's answers are far smaller (100 results: about 100 KB).
    package static let maxCachedBodyBytes = 2 * 1024 * 1024

    /// The disk cache's key of a request: method and target, secrets masked (no base URL: the file
    /// is per backend).
    static func diskKey(_ spec: RequestSpec) -> String {
        "\(spec.method.rawValue) \(SecretMasking.maskURL(spec.target))"
    }

    package static func age(of entry: ResponseDiskCache.Entry, now: Date) -> Duration {
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
