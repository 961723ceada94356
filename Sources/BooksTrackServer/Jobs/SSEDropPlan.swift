import BooksTrackSupport
import Foundation

/// Decides, event by event, whether an SSE connection is cut (the `SSEDropFault`). Thread-safe;
/// the random choice uses a seeded SplitMix64 so that runs repeat.
final class SSEDropPlan: @unchecked Sendable {
    let fault: SSEDropFault
    private let lock = NSLock()
    private var random: SplitMix64
    private var drops = 0

    init(_ fault: SSEDropFault) {
        self.fault = fault
        self.random = SplitMix64(seed: fault.seed)
    }

    /// Called after a connection wrote its `eventsWritten`-th job event; true = cut it now.
    func shouldDrop(afterEventsWritten eventsWritten: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if let maxDrops = fault.maxDrops, drops >= maxDrops { return false }
        var drop = false
        if let after = fault.afterEvents, eventsWritten >= after { drop = true }
        if !drop, fault.probability > 0, nextUnit() < fault.probability { drop = true }
        if drop { drops += 1 }
        return drop
    }

    /// Connections cut so far.
    var dropCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return drops
    }

    private func nextUnit() -> Double {
        Double(random.next() >> 11) / Double(1 << 53)
    }
}

/// Thrown inside an SSE body to cut the connection (fault injection).
struct SSEDroppedByFault: Error {}
