import BooksTrackContract
import BooksTrackServer
import BooksTrackSupport
import Foundation
import Testing

@Suite(.onWorkThreads) struct FixedWindowCounterTests {
    let rule = RateLimitRule(limit: 3, windowSeconds: 60)

    @Test func allowsUpToTheLimitThenRefuses() {
        var counter = FixedWindowCounter<String>()
        let first = counter.hit("a", rule: rule, now: 1000)
        #expect(first.allowed && first.remaining == 2 && first.limit == 3)
        #expect(first.resetEpochSeconds == 1060)
        #expect(counter.hit("a", rule: rule, now: 1001).remaining == 1)
        #expect(counter.hit("a", rule: rule, now: 1002).remaining == 0)
        let refused = counter.hit("a", rule: rule, now: 1010)
        #expect(!refused.allowed)
        #expect(refused.remaining == 0)
        #expect(refused.retryAfterSeconds == 50)
        #expect(refused.resetEpochSeconds == 1060)
    }

    @Test func windowResetsAfterItsLength() {
        var counter = FixedWindowCounter<String>()
        for t in 0..<3 { _ = counter.hit("a", rule: rule, now: 1000 + Double(t)) }
        #expect(!counter.hit("a", rule: rule, now: 1059.9).allowed)
        let fresh = counter.hit("a", rule: rule, now: 1060)
        #expect(fresh.allowed && fresh.remaining == 2 && fresh.resetEpochSeconds == 1120)
    }

    @Test func keysAreIndependent() {
        var counter = FixedWindowCounter<String>()
        for _ in 0..<3 { _ = counter.hit("a", rule: rule, now: 0) }
        #expect(!counter.hit("a", rule: rule, now: 1).allowed)
        #expect(counter.hit("b", rule: rule, now: 1).allowed)
    }

    @Test func refusedRequestsAreNotCounted() {
        var counter = FixedWindowCounter<String>()
        for _ in 0..<10 { _ = counter.hit("a", rule: rule, now: 5) }
        // Still exactly one window: after it ends the full budget is back.
        #expect(counter.hit("a", rule: rule, now: 65).remaining == 2)
    }

    @Test func clockGoingBackwardsStartsAFreshWindow() {
        var counter = FixedWindowCounter<String>()
        for _ in 0..<3 { _ = counter.hit("a", rule: rule, now: 500) }
        #expect(counter.hit("a", rule: rule, now: 400).allowed)
    }

    @Test func zeroLimitRefusesEverything() {
        var counter = FixedWindowCounter<String>()
        let decision = counter.hit("a", rule: RateLimitRule(limit: 0, windowSeconds: 60), now: 0)
        #expect(!decision.allowed && decision.retryAfterSeconds == 60)
    }

    @Test func sweepBoundsMemory() {
        var counter = FixedWindowCounter<Int>(sweepThreshold: 100)
        for key in 0..<100 { _ = counter.hit(key, rule: rule, now: 0) }
        #expect(counter.trackedKeys == 100)
        _ = counter.hit(1000, rule: rule, now: 120)
        #expect(counter.trackedKeys == 1)
    }

    @Test func seededRandomHitsKeepInvariants() {
        var generator = SplitMix64(seed: 42)
        var counter = FixedWindowCounter<Int>(sweepThreshold: 8)
        var now = 0.0
        var allowedInWindow: [Int: (start: Double, count: Int)] = [:]
        for _ in 0..<5000 {
            now += Double(generator.next() % 7)
            let key = Int(generator.next() % 5)
            let decision = counter.hit(key, rule: rule, now: now)
            #expect(decision.remaining >= 0 && decision.remaining <= rule.limit)
            #expect(decision.retryAfterSeconds >= 1 && decision.retryAfterSeconds <= rule.windowSeconds)
            var window = allowedInWindow[key] ?? (now, 0)
            if now >= window.start + 60 { window = (now, 0) }
            if decision.allowed { window.count += 1 }
            #expect(window.count <= rule.limit)
            allowedInWindow[key] = window
        }
    }

    @Test func limiterUsesInjectedClock() {
        let clock = ManualClock()
        let limiter = RateLimiter(rules: [.semantic: .perMinute(2)], clock: { clock.now.timeIntervalSince1970 })
        #expect(limiter.check(.search, client: "x") == nil)
        #expect(limiter.check(.semantic, client: "x")?.allowed == true)
        #expect(limiter.check(.semantic, client: "x")?.allowed == true)
        #expect(limiter.check(.semantic, client: "x")?.allowed == false)
        clock.advance(by: 60)
        #expect(limiter.check(.semantic, client: "x")?.allowed == true)
    }
}
