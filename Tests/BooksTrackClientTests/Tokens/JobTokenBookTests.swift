import Foundation
import Testing

@testable import BooksTrackClient

@Suite struct JobTokenBookTests {
    let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }

    @Test func aTokenFallsDueInItsLastHalfHourNotBefore() {
        var book = JobTokenBook()
        book.record("job-1", token: "a", now: t0)
        #expect(book.token(for: "job-1", now: at(10)) == "a")
        // Opens at 2 h − 30 min, plus a 5 s margin for clock skew.
        #expect(book.nextDue(now: t0) == at(5_405))
        #expect(book.due(now: at(5_404)).isEmpty)
        #expect(book.due(now: at(5_405)).map(\.token) == ["a"])
    }

    @Test func aRefreshedTokenReplacesTheOldOneAndMovesTheNextRefresh() {
        var book = JobTokenBook()
        book.record("job-1", token: "a", now: t0)
        book.record("job-1", token: "b", expiresIn: 7_200, now: at(5_405))
        #expect(book.token(for: "job-1", now: at(5_406)) == "b")
        #expect(book.nextDue(now: at(5_406)) == at(5_405 + 5_405))
        #expect(book.due(now: at(5_406)).isEmpty)
    }

    @Test func anExpiredTokenIsNeitherUsedNorRefreshed() {
        var book = JobTokenBook()
        book.record("job-1", token: "a", now: t0)
        #expect(book.token(for: "job-1", now: at(7_200)) == nil)
        #expect(book.due(now: at(7_200)).isEmpty)
        #expect(book.nextDue(now: at(7_200)) == nil)
    }

    @Test func aFinishedJobIsNotRefreshedButItsTokenStillReads() {
        var book = JobTokenBook()
        book.record("job-1", token: "a", now: t0)
        book.record("job-2", token: "b", now: at(60))
        book.finish("job-1")
        #expect(book.token(for: "job-1", now: at(100)) == "a")
        #expect(book.due(now: at(6_000)).map(\.jobID) == ["job-2"])
        #expect(book.nextDue(now: t0) == at(60 + 5_405))
    }

    @Test func aFailedRefreshIsRetriedLaterOrGivenUp() {
        var book = JobTokenBook()
        book.record("job-1", token: "a", now: t0)
        book.refreshFailed("job-1", retryAfter: 60, now: at(5_405))
        #expect(book.due(now: at(5_464)).isEmpty)
        #expect(book.due(now: at(5_465)).map(\.jobID) == ["job-1"])
        book.refreshFailed("job-1", retryAfter: nil, now: at(5_465))
        #expect(book.nextDue(now: at(5_465)) == nil, "a refused token is not tried again")
        #expect(book.token(for: "job-1", now: at(5_466)) == "a", "it still works until it expires")
    }

    @Test func anEmptyTokenIsNotRecorded() {
        var book = JobTokenBook()
        book.record("job-1", token: "", now: t0)
        #expect(book.entries.isEmpty)
    }

    @Test func aShortWindowKeepsTheMarginInsideIt() {
        var book = JobTokenBook(lifetime: 6, window: 4)
        book.record("job-1", token: "a", now: t0)
        #expect(book.nextDue(now: t0) == at(4), "6 s − 4 s + min(5 s, 2 s)")
    }

    @Test func aSupersededTokenIsSwappedForTheCurrentOneAnyOtherIsKept() {
        var book = JobTokenBook()
        book.record("job-1", token: "a", now: t0)
        book.record("job-1", token: "b", expiresIn: 7_200, now: at(5_405))
        #expect(book.presentable(for: "job-1", given: "a", now: at(5_406)) == "b")
        #expect(book.presentable(for: "job-1", given: nil, now: at(5_406)) == "b")
        #expect(book.presentable(for: "job-1", given: "wrong", now: at(5_406)) == "wrong")
        #expect(book.presentable(for: "job-2", given: "x", now: at(5_406)) == "x")
    }
}
