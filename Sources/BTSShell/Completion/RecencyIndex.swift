/// A bounded set of string keys (each with a payload) that answers "which keys start with this
/// prefix" by binary search, and forgets the least recently noted keys when it is full.
///
/// Keys are ordered by their UTF-8 bytes, so every key sharing a byte prefix sits in one
/// contiguous run of ``sortedKeys``: a lookup is two binary searches, O(log n), whatever the size.
/// Inserting is O(n) at worst (an array insert); when the index grows past ``capacity`` the oldest
/// tenth is dropped in one O(n log n) pass, so the cost is amortised and the size never exceeds
/// the capacity.
package struct RecencyIndex: Sendable, Equatable {
    /// One remembered key.
    struct Entry: Sendable, Equatable {
        var payload: String
        var stamp: UInt64
    }

    /// The most keys kept.
    package let capacity: Int
    private(set) var entries: [String: Entry] = [:]
    /// Every key, ascending by UTF-8 bytes.
    package private(set) var sortedKeys: [String] = []
    /// The payload of each key of ``sortedKeys``, at the same position.
    package private(set) var sortedPayloads: [String] = []
    private var clock: UInt64 = 0

    /// An empty index keeping at most `capacity` keys (at least 1).
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Number of keys.
    package var count: Int { sortedKeys.count }

    /// Notes `key` as just seen. A non-empty `payload` replaces the stored one.
    package mutating func note(_ key: String, payload: String = "") {
        clock &+= 1
        if var entry = entries[key] {
            entry.stamp = clock
            if !payload.isEmpty, payload != entry.payload {
                entry.payload = payload
                let position = Self.lowerBound(of: key, in: sortedKeys)
                if position < sortedPayloads.count { sortedPayloads[position] = payload }
            }
            entries[key] = entry
            return
        }
        entries[key] = Entry(payload: payload, stamp: clock)
        let position = Self.lowerBound(of: key, in: sortedKeys)
        sortedKeys.insert(key, at: position)
        sortedPayloads.insert(payload, at: position)
        if sortedKeys.count > capacity { evictOldest() }
    }

    /// The payload noted with `key`, if the key is known.
    package func payload(for key: String) -> String? { entries[key]?.payload }

    /// Whether `key` is known.
    package func contains(_ key: String) -> Bool { entries[key] != nil }

    /// The positions in ``sortedKeys`` of the keys that start with `prefix` (byte-wise).
    package func range(withPrefix prefix: String) -> Range<Int> {
        let lower = Self.lowerBound(of: prefix, in: sortedKeys)
        guard !prefix.isEmpty else { return lower..<sortedKeys.count }
        var low = lower
        var high = sortedKeys.count
        while low < high {
            let middle = (low + high) / 2
            if sortedKeys[middle].utf8.starts(with: prefix.utf8) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return lower..<low
    }

    /// The keys that start with `prefix`, ascending.
    package func keys(withPrefix prefix: String) -> ArraySlice<String> {
        sortedKeys[range(withPrefix: prefix)]
    }

    /// Up to `limit` keys, most recently noted first.
    package func mostRecent(_ limit: Int = .max) -> [String] {
        entries.sorted { $0.value.stamp > $1.value.stamp }.prefix(max(0, limit)).map(\.key)
    }

    /// Drops the oldest keys down to 90 % of the capacity.
    private mutating func evictOldest() {
        let keep = max(1, capacity - max(1, capacity / 10))
        let survivors = entries.sorted { $0.value.stamp > $1.value.stamp }.prefix(keep)
        entries = Dictionary(uniqueKeysWithValues: survivors.map { ($0.key, $0.value) })
        sortedKeys.removeAll { entries[$0] == nil }
        sortedPayloads = sortedKeys.map { entries[$0]?.payload ?? "" }
    }

    /// The first position whose key is not byte-wise below `key`.
    static func lowerBound(of key: String, in keys: [String]) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle].utf8.lexicographicallyPrecedes(key.utf8) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }
}
