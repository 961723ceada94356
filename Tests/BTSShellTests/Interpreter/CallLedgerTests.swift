import BooksTrackClient
import Testing

@testable import BTSShell

/// The call bookkeeping, without I/O: metrics for `timing`, budgets touched, deprecations once.
@Suite struct CallLedgerTests {
    @Test func booksCallsRetriesCacheHitsAndBudgets() {
        var ledger = CallLedger()
        _ = ledger.record(ResponseInfo(method: "GET", url: "u", status: 200, duration: .milliseconds(30), attempts: 3))
        _ = ledger.record(
            ResponseInfo(
                method: "GET",
                url: "u",
                status: 200,
                duration: .milliseconds(5),
                cacheHit: true,
                serverCacheHit: true
            )
        )
        ledger.record(.search, RateLimitBudget(limit: 100, remaining: 98, source: .headers))
        ledger.record(.semantic, RateLimitBudget(source: .unknown))
        ledger.record(.jobs, RateLimitBudget(limit: 30, source: .seeded))
        #expect(ledger.metrics.calls == 2)
        #expect(ledger.metrics.retries == 2)
        #expect(ledger.metrics.cacheHits == 1)
        #expect(ledger.metrics.serverCacheHits == 1)
        #expect(ledger.metrics.networkTime == .milliseconds(35))
        #expect(ledger.metrics.budgets == ["search 98/100", "jobs ?/30"])
    }

    @Test func aDeprecationIsShownOncePerSessionEvenAcrossCommands() {
        var ledger = CallLedger()
        let legacy = ResponseInfo(method: "GET", url: "u", status: 200, deprecationWarning: "'/v1/x' is deprecated")
        #expect(ledger.record(legacy) == "'/v1/x' is deprecated")
        #expect(ledger.record(legacy) == nil)
        ledger.metrics = CommandMetrics()  // the next command
        #expect(ledger.record(legacy) == nil)
        #expect(ledger.metrics.calls == 1)
    }
}
