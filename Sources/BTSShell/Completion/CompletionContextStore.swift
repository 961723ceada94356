import BooksTrackContract
import Foundation

/// Where the completion engine reads its session snapshot from.
package protocol CompletionContextSource: Sendable {
    /// The current snapshot. Must return at once (no I/O, no waiting on other tasks).
    var completionContext: CompletionContext { get }
    /// The catalog authors and titles complete from (nil: none; see ``CatalogCompletionLookup``).
    var catalogLookup: (any CatalogCompletionLookup)? { get }
}

extension CompletionContextSource {
    package var catalogLookup: (any CatalogCompletionLookup)? { nil }
}

extension CompletionContext: CompletionContextSource {
    /// A fixed snapshot is its own source (handy in tests).
    package var completionContext: CompletionContext { self }
}

/// The shared, thread-safe holder of the session's ``CompletionContext``: the shell updates it
/// after each command, the line editor's thread reads a snapshot on TAB. Reading copies a value
/// (copy-on-write), so a TAB never waits longer than an update's critical section.
package final class CompletionContextStore: CompletionContextSource, @unchecked Sendable {
    // @unchecked: `context` is only touched under `lock`.
    private let lock = NSLock()
    private var context: CompletionContext
    private var lastHarvested: JSONValue?
    private var catalog: (any CatalogCompletionLookup)?

    /// A store starting from `initial`.
    package init(_ initial: CompletionContext = CompletionContext()) {
        context = initial
    }

    /// The current snapshot.
    package var completionContext: CompletionContext {
        lock.lock()
        defer { lock.unlock() }
        return context
    }

    /// The catalog authors and titles complete from: the embedded backend's while it is the
    /// session's backend (``Shell/updateCompletionContext(_:)`` sets it).
    package var catalogLookup: (any CatalogCompletionLookup)? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return catalog
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            catalog = newValue
        }
    }

    /// Harvests books and job ids from a command's result (see ``CompletionContext/harvest(_:nodeLimit:)``),
    /// unless it is the value harvested last time (`$_` is unchanged after `echo`, `set`, …).
    package func harvest(_ value: JSONValue) {
        lock.lock()
        defer { lock.unlock() }
        guard value != .null, value != lastHarvested else { return }
        lastHarvested = value
        context.harvest(value)
    }

    /// Changes the context in place, e.g. `store.update { $0.harvest(result); $0.noteJob(id: id) }`.
    package func update(_ change: (inout CompletionContext) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        change(&context)
    }
}
