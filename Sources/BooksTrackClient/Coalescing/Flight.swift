import Synchronization

/// One in-flight shared GET and its joiners, safe to touch from any thread (cancellation
/// handlers run wherever the cancelling code runs). The request itself runs in its leader's task.
final class Flight: Sendable {
    typealias Outcome = Result<CallOutcome, BooksTrackError>
    typealias Waiter = CheckedContinuation<CallOutcome, any Error>

    private let machine = Mutex(FlightStateMachine<Waiter, Outcome>())

    /// Thrown to a joiner whose flight was abandoned: it starts a new one.
    struct Abandoned: Error {}

    var acceptsJoiners: Bool { machine.withLock { $0.acceptsJoiners } }

    /// Registers a joiner, or resumes it at once when the outcome is already decided.
    func join(id waiterID: Int, _ continuation: Waiter, isCancelled: Bool) {
        let action = machine.withLock { $0.join(id: waiterID, waiter: continuation, isCancelled: isCancelled) }
        switch action {
        case .wait:
            break
        case .resumeNow(let outcome):
            continuation.resume(with: outcome.mapError { $0 as any Error })
        case .cancelled:
            continuation.resume(throwing: CancellationError())
        case .abandoned:
            continuation.resume(throwing: Abandoned())
        }
    }

    /// A joiner was cancelled: it leaves at once (the request goes on for the leader).
    func leave(id waiterID: Int) {
        machine.withLock { $0.leave(id: waiterID) }?.resume(throwing: CancellationError())
    }

    /// The request ended: every registered joiner gets the outcome, and so will late joiners.
    func finish(_ outcome: Outcome) {
        let waiters = machine.withLock { $0.finish(outcome) }
        for continuation in waiters {
            continuation.resume(with: outcome.mapError { $0 as any Error })
        }
    }

    /// The leader was cancelled, and its request with it: the joiners start again.
    func abandon() {
        let waiters = machine.withLock { $0.abandon() }
        for continuation in waiters { continuation.resume(throwing: Abandoned()) }
    }
}
