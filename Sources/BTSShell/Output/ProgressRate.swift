/// The rate of a job's progress as seen by one `watch`: items done since the first update it saw,
/// over the time since then. A watch that attaches to a job already under way (`watch ID` after a
/// detach) never counts the items done before it attached as done in its first second (it showed
/// 208/s for a job doing 32/s). Pure: the caller supplies the times.
package struct ProgressRate: Sendable, Hashable {
    /// The first update seen: items processed then, and when (seconds on the caller's clock).
    private var baselineCount: Int?
    private var baselineTime: Double = 0
    /// How long to watch before a rate is shown at all.
    package var minimumSpan: Double

    package init(minimumSpan: Double = 0.5) {
        self.minimumSpan = minimumSpan
    }

    /// Records `processed` at `time`; returns items per second since the first update, or nil
    /// while too little time has passed or nothing has been processed since.
    package mutating func observe(processed: Int?, at time: Double) -> Double? {
        guard let processed else { return nil }
        guard let start = baselineCount, processed >= start else {
            // First update, or the count went back (a restarted job): start again from here.
            baselineCount = processed
            baselineTime = time
            return nil
        }
        let span = time - baselineTime
        guard span >= minimumSpan, processed > start else { return nil }
        return Double(processed - start) / span
    }
}
