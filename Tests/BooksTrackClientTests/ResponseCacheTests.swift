import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import BooksTrackClient

/// The client's response cache stays within its bounds, keeps what is fresh and drops the oldest.
@Suite struct ResponseCacheTests {
    func raw(_ size: Int) -> RawResponse {
        RawResponse(
            status: 200,
            headers: HTTPHeaders(),
            body: ByteBuffer(repeating: 0x61, count: size),
            url: "u",
            timeToHead: .zero,
            duration: .zero
        )
    }

    let now = Date(timeIntervalSince1970: 1_000_000)

    @Test func holdsAtMostItsEntriesDroppingTheOldest() {
        var cache = ResponseCache(maxEntries: 3, maxBytes: 1_000)
        for i in 0..<5 { cache.store(raw(10), for: "u\(i)", expires: now + 60) }
        #expect(cache.count == 3)
        #expect(cache.bytes == 30)
        #expect(cache.fresh("u0", now: now) == nil)
        #expect(cache.fresh("u1", now: now) == nil)
        #expect(cache.fresh("u4", now: now)?.body.readableBytes == 10)
    }

    @Test func holdsAtMostItsBytes() {
        var cache = ResponseCache(maxEntries: 100, maxBytes: 100)
        for i in 0..<10 { cache.store(raw(30), for: "u\(i)", expires: now + 60) }
        #expect(cache.bytes <= 100)
        #expect(cache.count == 3)
        cache.store(raw(101), for: "big", expires: now + 60)
        #expect(cache.fresh("big", now: now) == nil)
        #expect(cache.count == 3)
    }

    @Test func aStaleEntryIsDroppedWhenMetAndAReplacedOneCountsOnce() {
        var cache = ResponseCache(maxEntries: 10, maxBytes: 1_000)
        cache.store(raw(40), for: "a", expires: now + 1)
        #expect(cache.fresh("a", now: now) != nil)
        #expect(cache.fresh("a", now: now + 2) == nil)
        #expect(cache.count == 0)
        #expect(cache.bytes == 0)
        cache.store(raw(40), for: "b", expires: now + 60)
        cache.store(raw(50), for: "b", expires: now + 60)
        #expect(cache.count == 1)
        #expect(cache.bytes == 50)
    }

    /// 20,000 distinct lookups keep the bound (the dictionary it replaced kept every body).
    @Test func manyDistinctURLsStayWithinTheBound() {
        var cache = ResponseCache()
        for i in 0..<20_000 { cache.store(raw(1_024), for: "http://h/v1/search/isbn?isbn=\(i)", expires: now + 600) }
        #expect(cache.count == cache.maxEntries)
        #expect(cache.bytes <= cache.maxBytes)
    }

    @Test func cacheLifetimeReadsTheDirectives() {
        func lifetime(_ values: [String], default fallback: Duration? = .seconds(30)) -> TimeInterval? {
            var headers = HTTPHeaders()
            for v in values { headers.add(name: "Cache-Control", value: v) }
            return ResponseCaching.lifetime(headers, default: fallback)
        }
        #expect(lifetime([]) == 30)
        #expect(lifetime([], default: nil) == nil)
        #expect(lifetime(["public, max-age=300"]) == 300)
        #expect(lifetime(["Max-Age=60"]) == 60)
        #expect(lifetime(["max-age=0"]) == nil)
        #expect(lifetime(["max-age=300, no-store"]) == nil)
        #expect(lifetime(["private", " NO-CACHE "]) == nil)
        #expect(lifetime(["private"]) == 30)
        #expect(lifetime(["max-age=abc, max-age=20"]) == 20)
        #expect(lifetime(["max-age=10", "max-age=20"]) == 10)
        // RFC 9111 delta-seconds: digits, quoted or not; a number in another form is not one.
        #expect(lifetime(["max-age=\"45\""]) == 45)
        #expect(lifetime(["\tmax-age=7\t,public"]) == 7)
        #expect(lifetime(["max-age=1e3"]) == 30)
        #expect(lifetime(["max-age=inf"]) == 30)
        #expect(lifetime(["max-age=-5, max-age=9"]) == 9)
        #expect(lifetime(["max-age="]) == 30)
        #expect(lifetime(["max-age=99999999999999999999999"]) == 2_147_483_648)
        #expect(lifetime(["no-storex, max-age=5"]) == 5)
        #expect(lifetime([",,max-age=5,,"]) == 5)
        #expect(lifetime(["MAX-AGE=5", "No-Store"]) == nil)
    }
}
