import Foundation

/// A small in-memory cache of route results, keyed by a normalized request key, with per-entry
/// expiry and a bounded size (the oldest entries go first). Thread-safe.
final class ResponseCache: Sendable {
    private struct Entry {
        var value: any Sendable
        var expires: Date
        var inserted: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var tick: UInt64 = 0
    }

    let capacity: Int
    private let state = Locked(State())

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The cached value for `key` at `now`, if present, unexpired and of type `T`.
    func value<T: Sendable>(_ type: T.Type, for key: String, now: Date) -> T? {
        state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            guard entry.expires > now else {
                state.entries[key] = nil
                return nil
            }
            return entry.value as? T
        }
    }

    /// Stores `value` for `ttl` seconds, evicting expired and then the oldest entries when full.
    func store(_ value: some Sendable, for key: String, ttl: TimeInterval, now: Date) {
        state.withLock { state in
            state.tick += 1
            state.entries[key] = Entry(value: value, expires: now.addingTimeInterval(ttl), inserted: state.tick)
            guard state.entries.count > capacity else { return }
            state.entries = state.entries.filter { $0.value.expires > now }
            while state.entries.count > capacity,
                let oldest = state.entries.min(by: { $0.value.inserted < $1.value.inserted })?.key
            {
                state.entries[oldest] = nil
            }
        }
    }

    var count: Int { state.withLock { $0.entries.count } }
}
