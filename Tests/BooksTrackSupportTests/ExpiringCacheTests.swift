import Foundation
import Testing

@testable import BooksTrackSupport

/// The shared expiring cache keeps its bounds, drops the value stored longest ago first, skips
/// queue records of removed or re-stored keys, and keeps its queue compact.
@Suite struct ExpiringCacheTests {
    let now = Date(timeIntervalSince1970: 1_000_000)

    @Test func dropsTheOldestWhenFull() {
        var cache = ExpiringCache<Int>(maxEntries: 3)
        for i in 0..<5 { cache.store(i, for: "k\(i)", expires: now + 60) }
        #expect(cache.count == 3)
        #expect(cache.value(for: "k0", now: now) == nil)
        #expect(cache.value(for: "k1", now: now) == nil)
        #expect(cache.value(for: "k2", now: now) == 2)
        #expect(cache.value(for: "k4", now: now) == 4)
    }

    /// A key stored again counts as new: the next eviction takes the one after it.
    @Test func aKeyStoredAgainIsTheNewest() {
        var cache = ExpiringCache<Int>(maxEntries: 3)
        cache.store(1, for: "a", expires: now + 60)
        cache.store(2, for: "b", expires: now + 60)
        cache.store(3, for: "c", expires: now + 60)
        cache.store(10, for: "a", expires: now + 60)
        cache.store(4, for: "d", expires: now + 60)
        #expect(cache.value(for: "a", now: now) == 10)
        #expect(cache.value(for: "b", now: now) == nil)
        #expect(cache.value(for: "c", now: now) == 3)
        #expect(cache.value(for: "d", now: now) == 4)
    }

    @Test func weightIsBoundedAndAnOverweightValueIsNotStored() {
        var cache = ExpiringCache<String>(maxEntries: 100, maxWeight: 100)
        for i in 0..<10 { cache.store("v\(i)", for: "k\(i)", expires: now + 60, weight: 30) }
        #expect(cache.weight == 90)
        #expect(cache.count == 3)
        #expect(cache.value(for: "k9", now: now) == "v9")
        cache.store("old", for: "k9", expires: now + 60, weight: 1)
        cache.store("big", for: "k9", expires: now + 60, weight: 101)
        #expect(cache.value(for: "k9", now: now) == nil)
        #expect(cache.weight == 60)
        var unbounded = ExpiringCache<Int>(maxEntries: 2)
        unbounded.store(1, for: "a", expires: now + 60, weight: .max)
        unbounded.store(2, for: "b", expires: now + 60, weight: 0)
        #expect(unbounded.count == 2)
    }

    @Test func anExpiredValueGoesWhenMet() {
        var cache = ExpiringCache<Int>(maxEntries: 10, maxWeight: 1_000)
        cache.store(1, for: "a", expires: now + 1, weight: 40)
        #expect(cache.value(for: "a", now: now) == 1)
        #expect(cache.value(for: "a", now: now + 1) == nil)
        #expect(cache.count == 0)
        #expect(cache.weight == 0)
    }

    /// One key stored again and again never fills the queue with skipped records.
    @Test func theQueueStaysCompact() {
        var cache = ExpiringCache<Int>(maxEntries: 1_000)
        for i in 0..<10_000 { cache.store(i, for: "same", expires: now + 60) }
        #expect(cache.count == 1)
        #expect(cache.queuedRecords <= 2 * cache.count + 33)
        for i in 0..<10_000 { cache.store(i, for: "k\(i)", expires: now + 60) }
        #expect(cache.count == 1_000)
        #expect(cache.queuedRecords <= 2 * cache.count + 33)
    }

    /// Random stores, removals, look-ups and clock steps agree with a plain list kept in
    /// insertion order.
    @Test func agreesWithAnInsertionOrderedList() {
        var random = SplitMix64(seed: 16)
        var cache = ExpiringCache<Int>(maxEntries: 8, maxWeight: 50)
        var model: [(key: String, value: Int, expires: Date, weight: Int)] = []
        var clock = now
        // Compared with plain checks, the first difference recorded: 60,000 `#expect`s kept a core
        // of a full (parallel) test run busy for seconds.
        var firstDifference: String?
        for step in 0..<20_000 where firstDifference == nil {
            let key = "k\(random.next() % 12)"
            switch random.next() % 10 {
            case 0..<5:
                let weight = Int(random.next() % 20)
                let expires = clock + Double(random.next() % 30)
                cache.store(step, for: key, expires: expires, weight: weight)
                model.removeAll { $0.key == key }
                while !model.isEmpty, model.count >= 8 || model.reduce(0, { $0 + $1.weight }) + weight > 50 {
                    model.removeFirst()
                }
                model.append((key, step, expires, weight))
            case 5:
                cache.remove(key)
                model.removeAll { $0.key == key }
            case 6:
                clock += Double(random.next() % 5)
            default:
                let expected = model.first { $0.key == key }.flatMap { $0.expires > clock ? $0.value : nil }
                let found = cache.value(for: key, now: clock)
                if found != expected {
                    firstDifference =
                        "step \(step): \(key) is \(String(describing: found)), not \(String(describing: expected))"
                }
                if expected == nil { model.removeAll { $0.key == key } }
            }
            let modelWeight = model.reduce(0) { $0 + $1.weight }
            if cache.count != model.count || cache.weight != modelWeight {
                firstDifference =
                    "step \(step): \(cache.count) values weighing \(cache.weight), not \(model.count) weighing \(modelWeight)"
            }
        }
        #expect(firstDifference == nil, "\(firstDifference ?? "")")
    }
}
