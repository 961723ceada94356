import Foundation

/// A clock tests move by hand (rate-limit windows, idempotency expiry) instead of sleeping.
public final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = start }

    public var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    public func advance(by seconds: TimeInterval) {
        lock.lock()
        current = current.addingTimeInterval(seconds)
        lock.unlock()
    }

    /// The closure handed to the server.
    public var closure: @Sendable () -> Date { { [self] in self.now } }
}
