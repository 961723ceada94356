import BooksTrackContract

extension JobWatchStateMachine {
    /// Progress as a fraction in 0…1: values above 1 are percentages (production sends 100 on
    /// completion); NaN, infinities and negatives are dropped.
    static func normalizedFraction(_ progress: Double?) -> Double? {
        guard let progress, progress.isFinite, progress >= 0 else { return nil }
        return min(1, progress > 1 ? progress / 100 : progress)
    }

    /// Folds a status report into the last reported progress; returns an update for the user only when
    /// something moved forward (status, fraction or processed count). Nothing ever goes backwards.
    mutating func absorb(
        status reported: JobState,
        payload: WatchedJobEvent?,
        eventID: String?,
        channel: JobWatchChannel
    ) -> JobProgressUpdate? {
        let previous = lastReported
        var status = reported
        if let previous, previous.status.rank > status.rank { status = previous.status }

        var fraction = Self.normalizedFraction(payload?.progress)
        let total = payload?.totalCount.flatMap { $0 >= 0 ? $0 : nil } ?? previous?.totalCount
        var processed = payload?.processedCount.flatMap { $0 >= 0 ? $0 : nil }
        if fraction == nil, let processed, let total, total > 0 {
            fraction = min(1, Double(processed) / Double(total))
        }
        if status == .completed {
            fraction = 1
            if processed == nil, let total { processed = total }
        }
        fraction = Self.maxOptional(fraction, previous?.fraction)
        processed = Self.maxOptional(processed, previous?.processedCount)

        let update = JobProgressUpdate(
            jobID: jobID,
            status: status,
            fraction: fraction,
            processedCount: processed,
            totalCount: total,
            eventID: eventID,
            channel: channel
        )
        let movedForward: Bool
        if let previous {
            movedForward =
                status != previous.status
                || (fraction ?? 0) > (previous.fraction ?? 0)
                || (processed ?? 0) > (previous.processedCount ?? 0)
                || (previous.fraction == nil && fraction != nil)
        } else {
            movedForward = true
        }
        guard movedForward else { return nil }
        lastReported = update
        return update
    }

    static func maxOptional<T: Comparable>(_ lhs: T?, _ rhs: T?) -> T? {
        switch (lhs, rhs) {
        case (let lhs?, let rhs?): max(lhs, rhs)
        case (let value?, nil), (nil, let value?): value
        case (nil, nil): nil
        }
    }
}
