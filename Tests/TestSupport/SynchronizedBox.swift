import Foundation

/// A tiny lock box for test bookkeeping.
package final class SynchronizedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    package init(_ value: Value) { stored = value }
    package var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    package func mutate(_ body: (inout Value) -> Void) {
        lock.lock()
        body(&stored)
        lock.unlock()
    }
}
