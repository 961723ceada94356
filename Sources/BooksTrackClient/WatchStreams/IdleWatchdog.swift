import Foundation
import Synchronization

/// Tracks the last time a stream showed life; shared between the reader and its watchdog.
final class ActivityClock: Sendable {
    private let last = Mutex(ContinuousClock.now)

    func touch() { last.withLock { $0 = ContinuousClock.now } }

    var idle: Duration { ContinuousClock.now - last.withLock { $0 } }
}

/// Thrown when a stream stays silent (no byte, not even a heartbeat) longer than allowed.
struct StreamIdleTimeout: Error, Sendable {}
