import Foundation
import Synchronization

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
package final class ManualJobClock: JobClock, Sendable {
    private let current: Mutex<Date>

    package init(_ start: Date = Date(timeIntervalSince1970: 1_790_000_000)) { current = Mutex(start) }

    package func now() -> Date {
        current.withLock { $0 }
    }

    /// Moves the clock forward by `duration`.
    package func advance(by duration: Duration) {
        current.withLock { $0 = $0.addingTimeInterval(duration.jobSeconds) }
    }
}

extension Date {
    /// Milliseconds since the epoch.
    var epochMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }

    init(epochMilliseconds ms: Int64) { self.init(timeIntervalSince1970: Double(ms) / 1000) }
}
