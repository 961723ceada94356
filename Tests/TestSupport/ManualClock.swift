import Foundation
import Synchronization

/// A clock tests move by hand (rate-limit windows, idempotency expiry) instead of sleeping.
package final class ManualClock: Sendable {
    private let current: Mutex<Date>

    package init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex(start) }

    package var now: Date {
        current.withLock { $0 }
    }

    package func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The closure handed to the server.
    package var closure: @Sendable () -> Date { { [self] in self.now } }
}
