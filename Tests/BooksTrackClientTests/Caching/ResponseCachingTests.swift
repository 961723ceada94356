import BooksTrackContract
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import BooksTrackClient

/// The response cache's decisions, without I/O: what is cached, for how long, how a stale answer
/// is revalidated and how a stored one is served again.
@Suite struct ResponseCachingTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    func raw(_ headers: [(String, String)] = [], size: Int = 10, crossedOrigin: Bool = false) -> RawResponse {
        var raw = RawResponse(
            status: 200,
            headers: HTTPHeaders(headers),
            body: ByteBuffer(repeating: 0x61, count: size),
            url: "https://books.example/v1/search/isbn?isbn=9780441172719",
            timeToHead: .zero,
            duration: .zero
        )
        raw.crossedOrigin = crossedOrigin
        return raw
    }

    func spec(_ method: HTTPMethod, ttl: Duration?) -> RequestSpec {
        var spec = RequestSpec(method, "/v1/search/isbn", query: [("isbn", "9780441172719")])
        spec.cacheTTL = ttl
        return spec
    }

    @Test func onlyReadsWithALifetimeAreCachedAndOnlyWhenCachingIsOn() {
        #expect(ResponseCaching.isCacheable(spec(.GET, ttl: .seconds(60)), policy: .on))
        #expect(!ResponseCaching.isCacheable(spec(.GET, ttl: nil), policy: .on))
        #expect(!ResponseCaching.isCacheable(spec(.POST, ttl: .seconds(60)), policy: .on))
        #expect(!ResponseCaching.isCacheable(spec(.GET, ttl: .seconds(60)), policy: .off))
    }

    @Test func aFreshAnswerIsStoredForItsLifetimeUnlessSomethingForbidsIt() {
        let fallback = Duration.seconds(60)
        let stored = { (raw: RawResponse, cacheable: Bool, coalesced: Bool) in
            ResponseCaching.storedLifetime(of: raw, cacheable: cacheable, coalesced: coalesced, default: fallback)
        }
        #expect(stored(raw(), true, false) == 60)
        #expect(stored(raw([("Cache-Control", "max-age=300")]), true, false) == 300)
        #expect(stored(raw([("Cache-Control", "no-store")]), true, false) == nil)
        #expect(stored(raw(), false, false) == nil)
        #expect(stored(raw(), true, true) == nil)
        #expect(stored(raw(crossedOrigin: true), true, false) == nil)
        #expect(stored(raw(size: ResponseCaching.maxCachedBodyBytes), true, false) == 60)
        #expect(stored(raw(size: ResponseCaching.maxCachedBodyBytes + 1), true, false) == nil)
    }

    @Test func aConfirmedAnswerIsFreshAgainForItsNewLifetimeOrStaleAtOnce() {
        #expect(ResponseCaching.revalidatedLifetime(HTTPHeaders([("Cache-Control", "max-age=30")]), default: nil) == 30)
        #expect(ResponseCaching.revalidatedLifetime(HTTPHeaders(), default: .seconds(90)) == 90)
        #expect(
            ResponseCaching.revalidatedLifetime(HTTPHeaders([("Cache-Control", "no-cache")]), default: .seconds(90))
                == 0
        )
        #expect(ResponseCaching.revalidatedLifetime(HTTPHeaders(), default: nil) == 0)
    }

    @Test func aStoredAnswerKeepsItsETagForRevalidationAndServesAgainAsTwoHundred() {
        let answer = raw([("ETag", "\"v1\""), ("Content-Type", "application/json"), ("Set-Cookie", "s=1")])
        let key = ResponseCaching.diskKey(spec(.GET, ttl: .seconds(60)))
        let entry = ResponseCaching.entry(answer, key: key, now: now, ttl: 120)
        #expect(entry.key == key)
        #expect(entry.etag == "\"v1\"")
        #expect(entry.expiresAt == now.addingTimeInterval(120))
        #expect(!entry.headers.contains { $0.name.lowercased() == "set-cookie" })
        #expect(ResponseCaching.revalidation(of: entry) == HeaderField(name: "If-None-Match", value: "\"v1\""))
        var noTag = entry
        noTag.etag = nil
        #expect(ResponseCaching.revalidation(of: noTag) == nil)
        let served = ResponseCaching.raw(entry, url: "u")
        #expect(served.status == 200)
        #expect(served.body.readableBytes == 10)
        #expect(ResponseCaching.age(of: entry, now: now.addingTimeInterval(45)) == .seconds(45))
        #expect(ResponseCaching.age(of: entry, now: now.addingTimeInterval(-5)) == .zero)
    }
}
