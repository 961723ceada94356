import Foundation
import Synchronization
import Testing

@testable import BooksTrackClient

private let t0 = Date(timeIntervalSince1970: 1_790_000_000)
private func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }

private func headers(
    limit: Int? = nil,
    remaining: Int? = nil,
    reset: Date? = nil,
    status: Int = 200,
    retryAfter: Duration? = nil
) -> RateLimitObservation {
    RateLimitObservation(status: status, limit: limit, remaining: remaining, resetAt: reset, retryAfter: retryAfter)
}

@Suite("RateLimitLedger")
struct RateLimitLedgerTests {
    @Test func unknownUntilSeededOrLearned() {
        let ledger = RateLimitLedger(clock: { t0 })
        #expect(ledger.decision(for: .semantic) == .unknown)
        #expect(ledger.budget(for: .semantic) == RateLimitBudget(source: .unknown))
        #expect(ledger.tightest() == nil)
    }

    @Test func seededBudgetDecrementsWaitsAndResetsWhenTheWindowPasses() {
        var ledger = RateLimitLedger(clock: { t0 })
        ledger.seed(.semantic, requests: 5, per: .seconds(60))
        #expect(ledger.decision(for: .semantic) == .proceed)
        for step in 0..<5 {
            #expect(ledger.decision(for: .semantic, now: at(Double(step))) == .proceed)
            ledger.recordRequest(.semantic, now: at(Double(step)))
        }
        // The window started with the first request at t0.
        #expect(
            ledger.budget(for: .semantic, now: at(5))
                == RateLimitBudget(limit: 5, remaining: 0, resetAt: at(60), source: .seeded)
        )
        #expect(ledger.decision(for: .semantic, now: at(18)) == .wait(.seconds(42)))
        #expect(ledger.decision(for: .semantic, now: at(60)) == .proceed)
        #expect(ledger.budget(for: .semantic, now: at(61)).remaining == 5)
        // Other classes are untouched.
        #expect(ledger.decision(for: .search, now: at(18)) == .unknown)
    }

    /// A 60 s window's whole-second `X-RateLimit-Reset` (rounded up by the server) read 0.1 s after
    /// the window opened says 60.9 s; the ledger never lets a window end later than its length from
    /// now, so the prompt and `limits` say "60 s", not "61 s".
    @Test func resetNeverLaterThanTheWindowLength() {
        var ledger = RateLimitLedger(clock: { t0 })
        ledger.seed(.search, requests: 100, per: .seconds(60))
        ledger.record(headers(limit: 100, remaining: 99, reset: at(61)), for: .search, now: at(0.1))
        let reset = ledger.budget(for: .search, now: at(0.1)).resetAt
        #expect(reset == at(60.1))
        let status = RateLimitStatus(rateLimitClass: .search, budget: ledger.budget(for: .search, now: at(0.1)))
        #expect(status.formatted(now: at(0.1)) == "search 99/100 ↻60s")
        // A reset the server says is sooner is kept as it is.
        ledger.record(headers(limit: 100, remaining: 98, reset: at(30)), for: .search, now: at(1))
        #expect(ledger.budget(for: .search, now: at(1)).resetAt == at(30))
    }

    @Test func headersWinOverTheTable() {
        var ledger = RateLimitLedger(clock: { t0 })
        ledger.seedDocumentedLimits()
        #expect(ledger.budget(for: .search).limit == 100)
        ledger.recordRequest(.search)
        ledger.record(headers(limit: 20, remaining: 0, reset: at(42)), for: .search)
        #expect(
            ledger.budget(for: .search) == RateLimitBudget(limit: 20, remaining: 0, resetAt: at(42), source: .headers)
        )
        #expect(ledger.decision(for: .search) == .wait(.seconds(42)))
        // Seeding again (capabilities refresh) does not override what the headers said.
        ledger.seed(.search, requests: 100, per: .seconds(60))
        #expect(ledger.budget(for: .search).limit == 20)
        #expect(ledger.decision(for: .search, now: at(42)) == .proceed)
    }

    @Test func reseedingWithSameNumbersKeepsTheCount() {
        var ledger = RateLimitLedger(clock: { t0 })
        ledger.seed(.jobs, requests: 30, per: .seconds(60))
        ledger.recordRequest(.jobs)
        ledger.seed(.jobs, requests: 30, per: .seconds(60), now: at(1))
        #expect(ledger.budget(for: .jobs, now: at(1)).remaining == 29)
    }

    @Test func a429BlocksItsClassForRetryAfter() {
        var ledger = RateLimitLedger(clock: { t0 })
        ledger.seedDocumentedLimits()
        ledger.record(headers(status: 429, retryAfter: .seconds(30)), for: .semantic)
        #expect(ledger.decision(for: .semantic) == .wait(.seconds(30)))
        #expect(ledger.decision(for: .semantic, now: at(12)) == .wait(.seconds(18)))
        #expect(ledger.budget(for: .semantic).blockedUntil == at(30))
        #expect(ledger.budget(for: .semantic).source == .headers)
        // Per-class server (the stand-in): other classes go on.
        #expect(ledger.decision(for: .search) == .proceed)
        #expect(!ledger.usesSharedCounter)
        #expect(ledger.decision(for: .semantic, now: at(30)) == .proceed)
        #expect(ledger.budget(for: .semantic, now: at(30)).remaining == 5)
    }

    @Test func a429WithoutRetryAfterUsesResetThenFallback() {
        var ledger = RateLimitLedger(fallbackBlock: .seconds(7), clock: { t0 })
        ledger.record(
            RateLimitObservation(status: 429, headers: [("X-RateLimit-Reset", "1790000020000")], now: t0),
            for: .enrich
        )
        #expect(ledger.decision(for: .enrich) == .wait(.seconds(20)))
        ledger.record(headers(status: 429), for: .batch)
        #expect(ledger.decision(for: .batch) == .wait(.seconds(7)))
    }

    @Test func sharedCounterBlocksEveryClass() {
        var ledger = RateLimitLedger(assumesSharedCounter: true, clock: { t0 })
        ledger.seedDocumentedLimits()
        ledger.record(headers(status: 429, retryAfter: .seconds(25)), for: .similar)
        #expect(ledger.decision(for: .search) == .wait(.seconds(25)))
        #expect(ledger.decision(for: .jobs, now: at(5)) == .wait(.seconds(20)))
        #expect(ledger.decision(for: .jobs, now: at(25)) == .proceed)
    }

    @Test func sharedCounterHeadersFromOneClassGovernOthers() {
        var ledger = RateLimitLedger(assumesSharedCounter: true, clock: { t0 })
        ledger.seedDocumentedLimits()
        ledger.record(headers(limit: 50, remaining: 0, reset: at(40)), for: .search)
        #expect(ledger.decision(for: .semantic) == .wait(.seconds(40)))
    }

    @Test func sharedCounterIsDetectedFromA429DespiteBudgetLeft() {
        var ledger = RateLimitLedger(clock: { t0 })
        ledger.record(headers(limit: 100, remaining: 60, reset: at(50)), for: .search)
        ledger.recordRequest(.search)
        #expect(!ledger.usesSharedCounter)
        ledger.record(headers(status: 429, retryAfter: .seconds(10)), for: .search)
        #expect(ledger.sharedCounterDetected)
        #expect(ledger.decision(for: .semantic) == .wait(.seconds(10)))
    }

    @Test func a429AfterTheBudgetRanOutIsNotEvidenceOfSharing() {
        var ledger = RateLimitLedger(clock: { t0 })
        ledger.record(headers(limit: 5, remaining: 1, reset: at(50)), for: .semantic)
        ledger.recordRequest(.semantic)
        ledger.record(headers(status: 429, retryAfter: .seconds(10)), for: .semantic)
        #expect(!ledger.sharedCounterDetected)
        #expect(ledger.decision(for: .search) == .unknown)
    }

    @Test func globalBudgetLimitsEveryClass() {
        var ledger = RateLimitLedger(clock: { t0 })
        ledger.seed(.global, requests: 2, per: .seconds(3600))
        ledger.seed(.search, requests: 100, per: .seconds(60))
        ledger.recordRequest(.search)
        ledger.recordRequest(.search, now: at(1))
        #expect(ledger.budget(for: .global, now: at(1)).remaining == 0)
        #expect(ledger.decision(for: .search, now: at(1)) == .wait(.seconds(3599)))
    }

    @Test func exhaustedWithoutKnownResetIsUnknown() {
        var ledger = RateLimitLedger(clock: { t0 })
        ledger.record(headers(limit: 5, remaining: 0), for: .semantic)
        #expect(ledger.decision(for: .semantic) == .unknown)
    }

    @Test func remainingIsNeverAboveLimitNorBelowZero() {
        var ledger = RateLimitLedger(clock: { t0 })
        ledger.record(headers(limit: 5, remaining: 9), for: .semantic)
        #expect(ledger.budget(for: .semantic).remaining == 5)
        for _ in 0..<8 { ledger.recordRequest(.semantic) }
        #expect(ledger.budget(for: .semantic).remaining == 0)
    }

    @Test func tightestAndPromptFormat() {
        var ledger = RateLimitLedger(clock: { t0 })
        ledger.seedDocumentedLimits()
        #expect(ledger.tightest() == nil)
        #expect(ledger.tightest(includeFull: true) != nil)
        ledger.record(headers(limit: 5, remaining: 1, reset: at(42)), for: .semantic)
        ledger.recordRequest(.search)
        let tightest = ledger.tightest()
        #expect(tightest?.rateLimitClass == .semantic)
        #expect(tightest?.formatted(now: t0) == "semantic 1/5 ↻42s")
        ledger.record(headers(status: 429, retryAfter: .seconds(600)), for: .jobs)
        #expect(ledger.tightest()?.formatted(now: t0) == "jobs 0/30 ↻10m")
        #expect(
            RateLimitStatus(rateLimitClass: .import, budget: RateLimitBudget(source: .headers)).formatted(now: t0)
                == "import ?/?"
        )
        #expect(RateLimitStatus.shortDuration(7_200) == "2h")
        #expect(RateLimitStatus.shortDuration(0.2) == "1s")
    }

    @Test func injectedClockIsUsedWithoutNow() {
        let clock = LedgerTestClock(t0)
        var ledger = RateLimitLedger(clock: { clock.now })
        ledger.seed(.import, requests: 1, per: .seconds(60))
        ledger.recordRequest(.import)
        #expect(ledger.decision(for: .import) == .wait(.seconds(60)))
        clock.advance(by: 61)
        #expect(ledger.decision(for: .import) == .proceed)
    }
}

/// A manually advanced clock (thread-safe, so it can back a `@Sendable` closure).
private final class LedgerTestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// Servers that send no rate-limit headers.
@Suite("RateLimitLedger without headers")
struct RateLimitLedgerUnmeteredTests {
    /// A server that answers without rate-limit headers (the stand-in with `--rate-limits off`)
    /// reports no budget: the documented table must not throttle the client on its own.
    @Test func successesWithoutHeadersStopTheTableFromHoldingBack() {
        var ledger = RateLimitLedger(clock: { t0 })
        ledger.seedDocumentedLimits(now: t0)
        for step in 0..<100 { ledger.recordRequest(.search, now: at(Double(step) / 10)) }
        #expect(ledger.decision(for: .search, now: at(11)) == .wait(.seconds(49)), "the table alone would hold back")
        ledger.record(headers(), for: .search, now: at(11))
        #expect(ledger.decision(for: .search, now: at(11)) == .unknown)
        #expect(ledger.budget(for: .search, now: at(11)).source == .unmetered)
        #expect(ledger.budget(for: .global, now: at(11)).source == .unmetered)
        for step in 0..<500 { ledger.recordRequest(.search, now: at(12 + Double(step) / 100)) }
        #expect(ledger.decision(for: .search, now: at(20)) == .unknown)
        #expect(ledger.tightest(now: at(20)) == nil)
        // Capabilities arriving later do not bring the table back.
        ledger.seed(.search, requests: 100, per: .seconds(60), now: at(21))
        #expect(ledger.budget(for: .search, now: at(21)).source == .unmetered)
        // Another class is still a seeded guess until its own responses say otherwise.
        #expect(ledger.budget(for: .semantic, now: at(21)).source == .seeded)
    }

    @Test func headersAfterAHeaderlessResponseTakeOver() {
        var ledger = RateLimitLedger(clock: { t0 })
        ledger.seedDocumentedLimits(now: t0)
        ledger.record(headers(), for: .semantic, now: t0)
        #expect(ledger.budget(for: .semantic).source == .unmetered)
        ledger.record(headers(limit: 5, remaining: 0, reset: at(30)), for: .semantic, now: at(1))
        #expect(ledger.decision(for: .semantic, now: at(1)) == .wait(.seconds(29)))
        // A header-less answer does not erase numbers the server did send.
        ledger.record(headers(), for: .semantic, now: at(2))
        #expect(ledger.budget(for: .semantic, now: at(2)).source == .headers)
    }

    @Test func headerlessFailuresAndRateLimitRefusalsAreNotTakenAsUnmetered() {
        var ledger = RateLimitLedger(clock: { t0 })
        ledger.seedDocumentedLimits(now: t0)
        ledger.record(headers(status: 502), for: .search, now: t0)
        #expect(ledger.budget(for: .search).source == .seeded, "a proxy's 502 says nothing about budgets")
        ledger.record(headers(status: 429), for: .search, now: t0)
        #expect(ledger.budget(for: .search).source == .headers)
        #expect(ledger.decision(for: .search, now: at(1)) == .wait(.seconds(4)))
    }
}
