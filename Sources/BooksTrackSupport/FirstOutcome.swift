import Synchronization

/// A value set once, by whichever of several racing callers comes first (later ones are ignored),
/// and awaited by its reader: "the shutdown finished" against "the time limit passed", without
/// polling and without waiting for the loser.
package final class FirstOutcome<Value: Sendable>: Sendable {
    private let state = Mutex<(value: Value?, waiter: CheckedContinuation<Value, Never>?)>((nil, nil))

    package init() {}

    /// Sets the value unless one was set before; whether this call set it.
    @discardableResult
    package func resolve(_ value: Value) -> Bool {
        let (first, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Value, Never>?) in
            guard state.value == nil else { return (false, nil) }
            state.value = value
            return (true, state.waiter.take())
        }
        waiter?.resume(returning: value)
        return first
    }

    /// Whether a value was set.
    package var isResolved: Bool { state.withLock { $0.value != nil } }

    /// The first value set (waits for it); one reader.
    package var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Value? in
                    if let value = state.value { return value }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
