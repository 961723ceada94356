import BooksTrackSupport
import Foundation
import Synchronization

/// A small in-memory cache of route results, keyed by a normalized request key, with per-entry
/// expiry and a bounded size (an `ExpiringCache`: the oldest entries go first, an expired one
/// when met; a store stays O(1) when full). Thread-safe.
final class ResponseCache: Sendable {
    let capacity: Int
    private let state: Mutex<ExpiringCache<any Sendable>>

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        state = Mutex(ExpiringCache(maxEntries: self.capacity))
    }

    /// The cached value for `key` at `now`, if present, unexpired and of type `T`.
    func value<T: Sendable>(_ type: T.Type, for key: String, now: Date) -> T? {
        state.withLock { $0.value(for: key, now: now) } as? T
    }

    /// Stores `value` for `ttl` seconds, making room by dropping the oldest when full.
    func store(_ value: some Sendable, for key: String, ttl: TimeInterval, now: Date) {
        state.withLock { $0.store(value, for: key, expires: now.addingTimeInterval(ttl)) }
    }

    var count: Int { state.withLock { $0.count } }
}
