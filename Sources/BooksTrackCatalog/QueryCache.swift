import Synchronization

/// Up to `capacity` values by query, the oldest dropped first: the embeddings of recent queries and
/// their rankings (a server answers a repeated query without running the model or scanning the
/// vectors again; a one-shot process never repeats one).
final class QueryCache<Value: Sendable>: Sendable {
    private struct State {
        var values: [String: Value] = [:]
        var order: [String] = []
    }
    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int = 512) { self.capacity = capacity }

    func value(for key: String) -> Value? {
        state.withLock { $0.values[key] }
    }

    func insert(_ value: Value, for key: String) {
        state.withLock { state in
            if state.values.updateValue(value, forKey: key) == nil { state.order.append(key) }
            if state.order.count > capacity {
                let evicted = state.order.removeFirst()
                state.values[evicted] = nil
            }
        }
    }
}
