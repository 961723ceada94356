import Foundation

/// A clock tests move by hand (rate-limit windows, idempotency expiry) instead of sleeping.
package final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    package init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = start }

    package var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    package func advance(by seconds: TimeInterval) {
        lock.lock()
        current = current.addingTimeInterval(seconds)
        lock.unlock()
    }

    /// The closure handed to the server.
    package var closure: @Sendable () -> Date { { [self] in self.now } }
}
