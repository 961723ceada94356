import Synchronization

/// One in-flight shared GET: its task and its waiters, safe to touch from any thread
/// (cancellation handlers run wherever the cancelling code runs).
final class Flight: Sendable {
    typealias Outcome = Result<CallOutcome, BooksTrackError>
    typealias Waiter = CheckedContinuation<CallOutcome, any Error>

    let id: Int
    private let machine = Mutex(FlightStateMachine<Waiter, Outcome>())
    private let control = Mutex(Control())

    private struct Control {
        var task: Task<Void, Never>?
        var cancelRequested = false
    }

    /// Thrown to a joiner that found the flight abandoned: it starts a new one.
    struct Abandoned: Error {}

    init(id: Int) { self.id = id }

    var acceptsJoiners: Bool { machine.withLock { $0.acceptsJoiners } }

    /// Attaches the request's task (cancelled at once if every waiter already left).
    func start(_ task: Task<Void, Never>) {
        let cancelNow = control.withLock { control in
            control.task = task
            return control.cancelRequested
        }
        if cancelNow { task.cancel() }
    }

    /// Cancels the request (shutdown, or the last waiter left).
    func cancelRequest() {
        let task = control.withLock { control in
            control.cancelRequested = true
            return control.task
        }
        task?.cancel()
    }

    /// Registers a waiter, or resumes it at once when the outcome is already decided.
    func join(id waiterID: Int, _ continuation: Waiter, isCancelled: Bool) {
        let action = machine.withLock { $0.join(id: waiterID, waiter: continuation, isCancelled: isCancelled) }
        switch action {
        case .wait:
            break
        case .resumeNow(let outcome):
            continuation.resume(with: outcome.mapError { $0 as any Error })
        case .cancelled(let cancelRequest):
            continuation.resume(throwing: CancellationError())
            if cancelRequest { self.cancelRequest() }
        case .abandoned:
            continuation.resume(throwing: Abandoned())
        }
    }

    /// A waiter was cancelled: it leaves at once; the request is cancelled when the last one leaves.
    func leave(id waiterID: Int) {
        let action = machine.withLock { $0.leave(id: waiterID) }
        guard case .resumeCancelled(let continuation, let cancelRequest) = action else { return }
        continuation.resume(throwing: CancellationError())
        if cancelRequest { self.cancelRequest() }
    }

    /// The request ended: every registered waiter gets the outcome, and so will late joiners.
    func finish(_ outcome: Outcome) {
        let waiters = machine.withLock { $0.finish(outcome) }
        for continuation in waiters {
            continuation.resume(with: outcome.mapError { $0 as any Error })
        }
    }
}
