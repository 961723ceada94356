import BooksTrackContract
import Foundation

/// Where the completion engine reads its session snapshot from.
public protocol CompletionContextSource: Sendable {
    /// The current snapshot. Must return at once (no I/O, no waiting on other tasks).
    var completionContext: CompletionContext { get }
}

extension CompletionContext: CompletionContextSource {
    /// A fixed snapshot is its own source (handy in tests).
    public var completionContext: CompletionContext { self }
}

/// The shared, thread-safe holder of the session's ``CompletionContext``: the shell updates it
/// after each command, the line editor's thread reads a snapshot on TAB. Reading copies a value
/// (copy-on-write), so a TAB never waits longer than an update's critical section.
public final class CompletionContextStore: CompletionContextSource, @unchecked Sendable {
    // @unchecked: `context` is only touched under `lock`.
    private let lock = NSLock()
    private var context: CompletionContext
    private var lastHarvested: JSONValue?

    /// A store starting from `initial`.
    public init(_ initial: CompletionContext = CompletionContext()) {
        context = initial
    }

    /// The current snapshot.
    public var completionContext: CompletionContext {
        lock.lock()
        defer { lock.unlock() }
        return context
    }

    /// Harvests books and job ids from a command's result (see ``CompletionContext/harvest(_:nodeLimit:)``),
    /// unless it is the value harvested last time (`$_` is unchanged after `echo`, `set`, …).
    public func harvest(_ value: JSONValue) {
        lock.lock()
        defer { lock.unlock() }
        guard value != .null, value != lastHarvested else { return }
        lastHarvested = value
        context.harvest(value)
    }

    /// Changes the context in place, e.g. `store.update { $0.harvest(result); $0.noteJob(id: id) }`.
    public func update(_ change: (inout CompletionContext) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        change(&context)
    }
}
