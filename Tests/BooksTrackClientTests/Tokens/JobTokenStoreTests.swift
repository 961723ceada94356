import BooksTrackContract
import Foundation
import Testing

@testable import BooksTrackClient

/// The refreshes of job tokens: who waits for them, and when a failed one is tried again.
@Suite struct JobTokenStoreTests {
    let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }

    func refusal(_ status: Int, _ detail: String, retryAfter: Duration? = nil) -> BooksTrackError {
        BooksTrackError(
            code: status == 401 ? .unauthorized : .notFound,
            kind: .api,
            message: "Refused.",
            detail: detail,
            httpStatus: status,
            retryAfter: retryAfter
        )
    }

    @Test func softRefusalsAreRetriedHardOnesAreNot() {
        #expect(JobTokenStore.refreshRetryDelay(after: refusal(401, "Refresh in progress, please retry shortly")) == 5)
        #expect(JobTokenStore.refreshRetryDelay(after: refusal(401, "Refresh not allowed yet")) == 30)
        #expect(
            JobTokenStore.refreshRetryDelay(after: refusal(401, "Refresh not allowed yet", retryAfter: .seconds(12)))
                == 12
        )
        #expect(JobTokenStore.refreshRetryDelay(after: refusal(401, "Token expired")) == nil)
        #expect(JobTokenStore.refreshRetryDelay(after: refusal(404, "Job not found")) == nil)
        let unavailable = BooksTrackError(code: .networkError, kind: .connection, message: "Connection refused.")
        #expect(JobTokenStore.refreshRetryDelay(after: unavailable) == 60)
    }

    @Test func aFailedRefreshIsRetriedInsideTheWindowOrGivenUp() {
        var store = JobTokenStore(lifetime: 7_200, window: 1_800)
        store.book.record("job-1", token: "a", now: t0)
        store.book.record("job-2", token: "b", now: t0)
        let opens = at(5_405)
        #expect(store.book.due(now: opens).map(\.jobID) == ["job-1", "job-2"])
        // A minute's wait, as a sixth of the window allows.
        store.refreshFailed(
            "job-1",
            error: BooksTrackError(code: .networkError, kind: .connection, message: "x"),
            now: opens
        )
        store.refreshFailed("job-2", error: refusal(401, "Token expired"), now: opens)
        #expect(store.book.due(now: opens.addingTimeInterval(59)).isEmpty)
        #expect(store.book.due(now: opens.addingTimeInterval(60)).map(\.jobID) == ["job-1"])
        // A narrow window caps the wait at a sixth of it.
        var narrow = JobTokenStore(lifetime: 7_200, window: 120)
        narrow.book.record("job-1", token: "a", now: t0)
        let narrowOpens = narrow.book.nextDue(now: t0) ?? t0
        narrow.refreshFailed("job-1", error: refusal(429, "slow down", retryAfter: .seconds(90)), now: narrowOpens)
        #expect(narrow.book.nextDue(now: narrowOpens) == narrowOpens.addingTimeInterval(20))
    }

    @Test func waitersGoOnWhenTheLastRefreshEnds() async {
        var store = JobTokenStore(lifetime: 7_200, window: 1_800)
        #expect(!store.isRefreshing("job-1"))
        #expect(store.refreshEnded("job-1").isEmpty)
        store.refreshStarted("job-1")
        store.refreshStarted("job-1")
        #expect(store.isRefreshing("job-1"))
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            store.waitForRefresh("job-1", waiter)
            #expect(store.refreshEnded("job-1").isEmpty)
            let waiters = store.refreshEnded("job-1")
            #expect(waiters.count == 1)
            for waiter in waiters { waiter.resume() }
        }
        #expect(!store.isRefreshing("job-1"))
        // No refresh in flight: a waiter goes on at once.
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            store.waitForRefresh("job-1", waiter)
        }
    }
}
