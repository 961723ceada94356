import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The persistent command history in one file (the shell's `XDGPaths.historyFile`), shared by
/// concurrent sessions.
///
/// - Every accepted line is appended to the file at once (O_APPEND under `flock`), so nothing is
///   lost when the shell is killed (SIGTERM, SIGHUP) and concurrent shells interleave safely.
/// - Bounded: `load()` keeps the newest `limit` entries and trims the file when it grew beyond.
/// - Adjacent duplicates are dropped; lines `filter` refuses (secrets, leading space) are never
///   written (see `HistoryFilter`).
/// - Multi-line entries are stored escaped (`\n`, `\\`) and round-trip.
/// - Directories it creates are 0700, the file is 0600 (tightened if it was looser).
///
/// Disk errors never stop the shell: they are kept in `lastError` and the history stays in memory.
package final class HistoryStore: Sendable {
    /// The default bound.
    package static let defaultLimit = 2000

    /// The history file.
    package let fileURL: URL
    /// Maximum number of entries kept.
    package let limit: Int
    /// What may be recorded.
    package let filter: HistoryFilter
    private let state: HistoryState

    /// A store for `fileURL`; nothing touches the disk until `load()` or `record(_:)`.
    package init(fileURL: URL, limit: Int = HistoryStore.defaultLimit, filter: HistoryFilter = .builtIn) {
        self.fileURL = fileURL
        self.limit = max(1, limit)
        self.filter = filter
        state = HistoryState()
    }

    /// Reads the file (creating it and its directories if needed), keeps the newest `limit`
    /// entries, and trims the file if it holds more. Returns the entries, oldest first.
    @discardableResult
    package func load() throws(HistoryStoreError) -> [String] {
        let file = HistoryFile(path: fileURL.path)
        let entries: [String]
        do {
            entries = try file.loadTrimming(limit: limit)
        } catch {
            state.setError(error)
            throw error
        }
        state.replace(entries)
        return entries
    }

    /// The entries in memory (loaded plus recorded this session), oldest first.
    package var entries: [String] { state.entries }

    /// The last disk error, if any (recording continues in memory).
    package var lastError: HistoryStoreError? { state.error }

    /// Records an accepted line: returns false when the filter refuses it or it repeats the
    /// previous entry; otherwise appends it to the file immediately and returns true (also when
    /// the disk write failed: see `lastError`).
    @discardableResult
    package func record(_ line: String) -> Bool {
        guard filter.allows(line) else { return false }
        guard state.appendIfNew(line, limit: limit) else { return false }
        do {
            try HistoryFile(path: fileURL.path).append(line)
        } catch {
            state.setError(error)
        }
        return true
    }

    /// Makes sure recorded lines are on stable storage (fsync). Each `record` has already
    /// written its line, so this only matters against power loss.
    package func flush() {
        let descriptor = open(fileURL.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}

/// A history disk failure.
package struct HistoryStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed ("create directory", "open", "lock", "read", "write", "rename").
    package let operation: String
    /// The path involved.
    package let path: String
    /// The `errno` value.
    package let code: Int32

    package var description: String {
        "history: cannot \(operation) \(path): \(String(cString: strerror(code)))"
    }
}

/// In-memory entries, guarded by a lock.
private final class HistoryState: Sendable {
    private struct State {
        var storage: [String] = []
        var lastError: HistoryStoreError?
    }

    private let state = Mutex(State())

    var entries: [String] {
        state.withLock { $0.storage }
    }

    var error: HistoryStoreError? {
        state.withLock { $0.lastError }
    }

    func replace(_ entries: [String]) {
        state.withLock { $0.storage = entries }
    }

    func setError(_ error: HistoryStoreError) {
        state.withLock { $0.lastError = error }
    }

    /// Appends unless `line` equals the last entry; keeps at most `limit` entries.
    func appendIfNew(_ line: String, limit: Int) -> Bool {
        state.withLock { state in
            if state.storage.last == line { return false }
            state.storage.append(line)
            if state.storage.count > limit { state.storage.removeFirst(state.storage.count - limit) }
            return true
        }
    }
}
