import BooksTrackSupport
import Foundation
import Synchronization

/// Decides, event by event, whether an SSE connection is cut (the `SSEDropFault`). Thread-safe;
/// the random choice uses a seeded SplitMix64 so that runs repeat.
final class SSEDropPlan: Sendable {
    let fault: SSEDropFault
    private struct State {
        var random: SplitMix64
        var drops = 0

        mutating func nextUnit() -> Double {
            Double(random.next() >> 11) / Double(1 << 53)
        }
    }

    private let state: Mutex<State>

    init(_ fault: SSEDropFault) {
        self.fault = fault
        self.state = Mutex(State(random: SplitMix64(seed: fault.seed)))
    }

    /// Called after a connection wrote its `eventsWritten`-th job event; true = cut it now.
    func shouldDrop(afterEventsWritten eventsWritten: Int) -> Bool {
        let fault = fault
        return state.withLock { state in
            if let maxDrops = fault.maxDrops, state.drops >= maxDrops { return false }
            var drop = false
            if let after = fault.afterEvents, eventsWritten >= after { drop = true }
            if !drop, fault.probability > 0, state.nextUnit() < fault.probability { drop = true }
            if drop { state.drops += 1 }
            return drop
        }
    }

    /// Connections cut so far.
    var dropCount: Int {
        state.withLock { $0.drops }
    }
}

/// Thrown inside an SSE body to cut the connection (fault injection).
struct SSEDroppedByFault: Error {}
