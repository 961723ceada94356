import Foundation
import Synchronization

/// Remembers the first result stored under an idempotency key for a time window, so a repeated
/// request returns it without new work. Thread-safe; expired keys are swept as new ones arrive.
final class IdempotencyStore: Sendable {
    struct Record: Sendable {
        var fingerprint: String
        var value: any Sendable
        var stored: Date
    }

    let window: TimeInterval
    private let records = Mutex([String: Record]())

    init(window: TimeInterval) { self.window = window }

    /// The live record for `key` at `now`.
    func record(for key: String, now: Date) -> Record? {
        records.withLock { records in
            guard let record = records[key] else { return nil }
            guard now.timeIntervalSince(record.stored) < window else {
                records[key] = nil
                return nil
            }
            return record
        }
    }

    /// Stores `value` unless a live record exists; returns the record that is in force (the first one).
    func storeIfAbsent(key: String, fingerprint: String, value: some Sendable, now: Date) -> Record {
        records.withLock { records in
            if let existing = records[key], now.timeIntervalSince(existing.stored) < window {
                return existing
            }
            if records.count > 10_000 {
                records = records.filter { now.timeIntervalSince($0.value.stored) < window }
            }
            let record = Record(fingerprint: fingerprint, value: value, stored: now)
            records[key] = record
            return record
        }
    }
}
