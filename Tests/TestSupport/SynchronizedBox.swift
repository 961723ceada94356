import Synchronization

/// A tiny lock box for test bookkeeping.
package final class SynchronizedBox<Value: Sendable>: Sendable {
    private let stored: Mutex<Value>
    package init(_ value: Value) { stored = Mutex(value) }
    package var value: Value {
        stored.withLock { $0 }
    }
    package func mutate(_ body: (inout Value) -> Void) {
        stored.withLock { body(&$0) }
    }
}
