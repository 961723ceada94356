import BTSShell
import BooksTrackContract
import Testing

/// Issue 33, item 8: re-attaching to a job under way (`watch ID` after a detach) showed 208/s for
/// a job doing 32/s: the items done before attaching were counted as done since attaching.
@Suite("progress rate")
struct ProgressRateTests {
    @Test func reattachingCountsOnlyTheItemsSeenSinceAttaching() {
        var rate = ProgressRate()
        // Attached at 6.0 s on the watch's clock... the job had already done 800 of 1000.
        #expect(rate.observe(processed: 800, at: 0.05) == nil)
        #expect(rate.observe(processed: 808, at: 0.30) == nil)  // too soon to tell
        let first = rate.observe(processed: 832, at: 1.05)
        #expect(first == 32)
        let line = ProgressLine(barWidth: 10).render(
            fraction: nil,
            processed: 832,
            total: 1000,
            rate: first,
            status: .processing
        )
        #expect(line.contains("32.0/s"), "\(line)")
        #expect(line.contains("ETA 6 s"), "\(line)")  // 168 left at 32/s: 5.25 s, shown rounded up
        #expect(rate.observe(processed: 896, at: 3.05) == 32)
    }

    @Test func aWatchFromTheStartMeasuresFromItsFirstUpdate() {
        var rate = ProgressRate()
        #expect(rate.observe(processed: 0, at: 0.1) == nil)
        #expect(rate.observe(processed: 50, at: 2.1) == 25)
        // No count, no rate; nothing new since the first update, no rate.
        var idle = ProgressRate()
        #expect(idle.observe(processed: nil, at: 0) == nil)
        #expect(idle.observe(processed: 10, at: 0) == nil)
        #expect(idle.observe(processed: 10, at: 5) == nil)
    }

    /// A count that goes back (the job restarted) starts the measure again rather than going negative.
    @Test func aCountThatGoesBackStartsAgain() {
        var rate = ProgressRate()
        #expect(rate.observe(processed: 500, at: 0) == nil)
        #expect(rate.observe(processed: 10, at: 1) == nil)
        #expect(rate.observe(processed: 30, at: 2) == 20)
    }
}
