import BooksTrackContract
import Foundation
import Testing

@testable import BooksTrackClient

/// The client's stream and token timings derive from the contract's `JobTimings`: a silent stream
/// is given up only after more than one heartbeat, and tokens are refreshed in the server's window.
@Suite struct JobTimingsTests {
    @Test func silenceLimitsOutlastAHeartbeat() throws {
        let url = try #require(URL(string: "http://127.0.0.1:1"))
        let api = APIConfiguration(baseURL: url)
        let watch = JobWatchConfiguration()
        #expect(api.streamIdleTimeout == JobTimings.clientSilenceLimit)
        #expect(watch.livenessTimeout == JobTimings.clientSilenceLimit)
        // One late heartbeat is not a lost connection: the limit is more than two heartbeats.
        #expect(JobTimings.clientSilenceLimit > JobTimings.heartbeat * 2)
    }

    @Test func tokensAreRefreshedInsideTheServersWindow() throws {
        let url = try #require(URL(string: "http://127.0.0.1:1"))
        let api = APIConfiguration(baseURL: url)
        #expect(
            api.jobTokenLifetime == JobTimings.tokenLifetime
                && api.jobTokenRefreshWindow == JobTimings.tokenRefreshWindow
        )
        var book = JobTokenBook()
        let start = Date(timeIntervalSince1970: 1_000_000)
        book.record("j", token: "t", now: start)
        let due = try #require(book.nextDue(now: start))
        let opens = start.addingTimeInterval(
            JobTimings.tokenLifetime.timeInterval - JobTimings.tokenRefreshWindow.timeInterval
        )
        #expect(due >= opens && due < start.addingTimeInterval(JobTimings.tokenLifetime.timeInterval))
    }
}
