import Foundation

/// A tiny lock box for test bookkeeping.
public final class SynchronizedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    public init(_ value: Value) { stored = value }
    public var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    public func mutate(_ body: (inout Value) -> Void) {
        lock.lock()
        body(&stored)
        lock.unlock()
    }
}
