import Foundation

/// Tracks the last time a stream showed life; shared between the reader and its watchdog.
final class ActivityClock: @unchecked Sendable {
    private let lock = NSLock()
    private var last = ContinuousClock.now

    func touch() {
        lock.lock()
        last = ContinuousClock.now
        lock.unlock()
    }

    var idle: Duration {
        lock.lock()
        defer { lock.unlock() }
        return ContinuousClock.now - last
    }
}

/// Thrown when a stream stays silent (no byte, not even a heartbeat) longer than allowed.
struct StreamIdleTimeout: Error, Sendable {}
