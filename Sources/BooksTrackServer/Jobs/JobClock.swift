import Foundation

/// The wall clock the job engine reads for timestamps, event ids, token expiry and result TTLs.
/// Injected so that tests can move time instead of sleeping. (Pacing and SSE timers use real time.)
package protocol JobClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system clock.
package struct SystemJobClock: JobClock {
    package init() {}
    package func now() -> Date { Date() }
}

/// A clock that only moves when told to; for tests.
package final class ManualJobClock: JobClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    package init(_ start: Date = Date(timeIntervalSince1970: 1_790_000_000)) { current = start }

    package func now() -> Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Moves the clock forward by `duration`.
    package func advance(by duration: Duration) {
        lock.lock()
        defer { lock.unlock() }
        current = current.addingTimeInterval(duration.jobSeconds)
    }
}

extension Date {
    /// Milliseconds since the epoch.
    var epochMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }

    init(epochMilliseconds ms: Int64) { self.init(timeIntervalSince1970: Double(ms) / 1000) }
}
