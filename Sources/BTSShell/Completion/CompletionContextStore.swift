import BooksTrackContract
import Synchronization

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
package final class CompletionContextStore: CompletionContextSource, Sendable {
    private struct State {
        var context: CompletionContext
        var lastHarvested: JSONValue?
        var catalog: (any CatalogCompletionLookup)?
    }

    private let state: Mutex<State>

    /// A store starting from `initial`.
    package init(_ initial: CompletionContext = CompletionContext()) {
        state = Mutex(State(context: initial))
    }

    /// The current snapshot.
    package var completionContext: CompletionContext {
        state.withLock { $0.context }
    }

    /// The catalog authors and titles complete from: the embedded backend's while it is the
    /// session's backend (``Shell/updateCompletionContext(_:)`` sets it).
    package var catalogLookup: (any CatalogCompletionLookup)? {
        get { state.withLock { $0.catalog } }
        set { state.withLock { $0.catalog = newValue } }
    }

    /// Harvests books and job ids from a command's result (see ``CompletionContext/harvest(_:nodeLimit:)``),
    /// unless it is the value harvested last time (`$_` is unchanged after `echo`, `set`, …).
    package func harvest(_ value: JSONValue) {
        state.withLock { state in
            guard value != .null, value != state.lastHarvested else { return }
            state.lastHarvested = value
            state.context.harvest(value)
        }
    }

    /// Changes the context in place, e.g. `store.update { $0.harvest(result); $0.noteJob(id: id) }`.
    /// `change` runs under the lock: it must be quick and must not touch the store.
    package func update(_ change: (inout CompletionContext) -> Void) {
        state.withLock { change(&$0.context) }
    }
}
