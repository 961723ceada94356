import Foundation

/// Values by key until they expire, bounded by a count and a total weight (the client weighs a
/// response by its body's bytes; the server counts entries only). When full, the value stored
/// longest ago goes first; an expired value goes when it is met.
///
/// Store, look-up and eviction are O(1) amortised: insertion order is a queue of (key, serial)
/// records read from a head index, and a record whose key was since removed or stored again is
/// skipped when it reaches the head. The queue is compacted when such records outnumber the live
/// ones. (An `OrderedDictionary`'s `removeFirst` would shift every entry at each store once full.)
///
/// Inlinable, so that each client specializes it: unspecialized, every use of an entry would look
/// up its generic metadata.
package struct ExpiringCache<Value> {
    package let maxEntries: Int
    package let maxWeight: Int
    /// The summed weight of the values held.
    @inlinable package var weight: Int { heldWeight }
    @usableFromInline var heldWeight = 0

    @usableFromInline
    struct Entry {
        @usableFromInline var value: Value
        @usableFromInline var expires: Date
        @usableFromInline var weight: Int
        @usableFromInline var serial: UInt64

        @inlinable
        init(value: Value, expires: Date, weight: Int, serial: UInt64) {
            self.value = value
            self.expires = expires
            self.weight = weight
            self.serial = serial
        }
    }

    @usableFromInline
    struct Record: Sendable {
        @usableFromInline var key: String
        @usableFromInline var serial: UInt64

        @inlinable
        init(key: String, serial: UInt64) {
            self.key = key
            self.serial = serial
        }
    }

    @usableFromInline var entries: [String: Entry] = [:]
    @usableFromInline var order: [Record] = []
    @usableFromInline var head = 0
    @usableFromInline var nextSerial: UInt64 = 0

    @inlinable
    package init(maxEntries: Int, maxWeight: Int = .max) {
        self.maxEntries = maxEntries
        self.maxWeight = maxWeight
    }

    @inlinable
    package var count: Int { entries.count }

    /// Records in the insertion queue, live or skipped (tests check the compaction's bound).
    var queuedRecords: Int { order.count - head }

    /// The value for `key` if it is still fresh at `now` (an expired one is dropped).
    @inlinable
    package mutating func value(for key: String, now: Date) -> Value? {
        guard let entry = entries[key] else { return nil }
        if entry.expires > now { return entry.value }
        remove(key)
        return nil
    }

    /// Stores `value` for `key` until `expires`, making room by dropping the oldest; a value
    /// heavier than the whole cache is not stored (and the key's old value is gone).
    @inlinable
    package mutating func store(_ value: Value, for key: String, expires: Date, weight valueWeight: Int = 0) {
        remove(key)
        guard valueWeight <= maxWeight, maxEntries > 0 else { return }
        while entries.count >= maxEntries || heldWeight > maxWeight - valueWeight, head < order.count {
            let oldest = order[head]
            head += 1
            if entries[oldest.key]?.serial == oldest.serial { remove(oldest.key) }
        }
        nextSerial += 1
        entries[key] = Entry(value: value, expires: expires, weight: valueWeight, serial: nextSerial)
        order.append(Record(key: key, serial: nextSerial))
        heldWeight += valueWeight
        if order.count - head > 2 * entries.count + 32 || head > order.count / 2 + 32 { compact() }
    }

    /// Drops the value for `key`, if any; its queue record is skipped later.
    @inlinable
    package mutating func remove(_ key: String) {
        if let old = entries.removeValue(forKey: key) { heldWeight -= old.weight }
    }

    /// Keeps only the records of live entries, in order.
    @inlinable
    mutating func compact() {
        order = order[head...].filter { entries[$0.key]?.serial == $0.serial }
        head = 0
    }
}

extension ExpiringCache: Sendable where Value: Sendable {}
extension ExpiringCache.Entry: Sendable where Value: Sendable {}
