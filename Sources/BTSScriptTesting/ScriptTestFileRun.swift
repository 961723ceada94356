import BTSShell
import BooksTrackSupport
import Dispatch
import Foundation
import Synchronization

/// One file's run as the runner holds it: its work (a task of its own), the one reason it was
/// stopped from outside, and its outcome, whichever comes first: the work's end, or the grace
/// after a stop running out (the work is then left behind and the run goes on).
///
/// The time limit and the grace are watched by threads of their own, not by tasks: busy work (a
/// `while` loop with a huge `looplimit` in each of `--jobs` files) can hold every thread of
/// Swift's pool, and a stop must still arrive. A stop cancels the work's task: its requests,
/// `sleep`, loops and pipelines (their whole process group) end on cancellation.
final class ScriptTestFileRun: Sendable {
    /// What the file's session said when its work ended.
    struct Finished: Sendable, Hashable {
        var status: Int32
        var failures: [ScriptTestFailure]
        var expectations: Int
    }

    enum Outcome: Sendable, Hashable {
        case finished(Finished)
        /// Stopped, and still not ended after the grace.
        case leftBehind
    }

    private struct State {
        var stop: ScriptTestStop?
        var work: Task<Void, Never>?
    }

    private let state = Mutex(State())
    private let firstOutcome = FirstOutcome<Outcome>()
    private let ended = ThreadLatch()
    /// How long a stopped file has to end.
    let grace: Duration

    init(grace: Duration) {
        self.grace = grace
    }

    /// Why it was stopped, when it was stopped before its work ended.
    var stop: ScriptTestStop? { state.withLock { $0.stop } }

    /// Starts the work (cancelled at once when a stop came first).
    func start(_ body: @escaping @Sendable () async -> Finished) {
        let task = Task { [self] in resolve(.finished(await body())) }
        let stopped = state.withLock { state -> Bool in
            state.work = task
            return state.stop != nil
        }
        if stopped { task.cancel() }
    }

    /// Stops the work unless it ended or was stopped before; when it has not ended `grace`
    /// later, it is left behind. Callable from any thread.
    func stop(_ reason: ScriptTestStop) {
        let stopping = state.withLock { state -> (Bool, Task<Void, Never>?) in
            guard state.stop == nil, !firstOutcome.isResolved else { return (false, nil) }
            state.stop = reason
            return (true, state.work)
        }
        guard stopping.0 else { return }
        stopping.1?.cancel()
        let grace = self.grace
        Self.watch { [self] in
            if !ended.wait(for: grace) { resolve(.leftBehind) }
        }
    }

    /// Stops it (`timed out after …`) when it runs longer than `limit`.
    func limit(to limit: Duration) {
        Self.watch { [self] in
            if !ended.wait(for: limit) { stop(.timedOut(limit: limit)) }
        }
    }

    /// The work's end, or `.leftBehind` (one reader).
    var outcome: Outcome {
        get async { await firstOutcome.value }
    }

    private func resolve(_ outcome: Outcome) {
        if firstOutcome.resolve(outcome) { ended.open() }
    }

    /// `body` on a thread of its own (it blocks, waiting on a latch).
    private static func watch(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = "bts.test.watch"
        thread.stackSize = 256 * 1024
        thread.start()
    }
}

/// Stops a whole run from any thread (a signal's handler): every running file is stopped with
/// the reason, and no more files start.
package final class ScriptTestRunControl: Sendable {
    private let state = Mutex<(stop: ScriptTestStop?, running: [ScriptTestFileRun])>((nil, []))

    package init() {}

    /// Why the run was stopped; nil while it was not.
    package var stopReason: ScriptTestStop? { state.withLock { $0.stop } }

    /// Stops the run (the first reason is kept).
    package func stop(_ reason: ScriptTestStop) {
        let running = state.withLock { state -> [ScriptTestFileRun] in
            guard state.stop == nil else { return [] }
            state.stop = reason
            return state.running
        }
        for run in running { run.stop(reason) }
    }

    /// A file's run starts: it is stopped at once when the run was.
    func add(_ run: ScriptTestFileRun) {
        let reason = state.withLock { state -> ScriptTestStop? in
            state.running.append(run)
            return state.stop
        }
        if let reason { run.stop(reason) }
    }

    func remove(_ run: ScriptTestFileRun) {
        state.withLock { $0.running.removeAll { $0 === run } }
    }
}

/// A flag that opens once; threads wait for it with a time limit (on the monotonic clock),
/// blocking themselves and no thread of Swift's pool.
final class ThreadLatch: Sendable {
    private let state = Mutex<(open: Bool, waiters: [DispatchSemaphore])>((false, []))

    func open() {
        let waiters = state.withLock { state -> [DispatchSemaphore] in
            guard !state.open else { return [] }
            state.open = true
            return state.waiters.take()
        }
        for waiter in waiters { waiter.signal() }
    }

    /// Blocks the calling thread until the latch opens or `limit` passes; whether it opened.
    func wait(for limit: Duration) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        let isOpen = state.withLock { state -> Bool in
            if state.open { return true }
            state.waiters.append(semaphore)
            return false
        }
        if isOpen { return true }
        let (seconds, attoseconds) = limit.components
        let nanoseconds = max(0, min(seconds, 1_000_000_000) * 1_000_000_000 + attoseconds / 1_000_000_000)
        _ = semaphore.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
        return state.withLock { $0.open }
    }
}

extension Array {
    /// The elements, leaving the array empty.
    fileprivate mutating func take() -> [Element] {
        defer { self = [] }
        return self
    }
}
