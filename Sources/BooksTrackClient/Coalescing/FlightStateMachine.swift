/// The joiners of one shared (coalesced) request and its result, as a pure state machine.
///
/// The request runs in the task of the caller that started it (the leader, which is not a waiter
/// here); callers asking for the same GET meanwhile join it and wait. A joiner's registration and
/// the request's completion can arrive in either order: the body of
/// `withCheckedThrowingContinuation` is not guaranteed to run on the actor that started the request,
/// so the request may finish before a joiner is registered (seen under load as a GET that never
/// returned). The machine therefore keeps the result for late joiners and remembers joiners that
/// were cancelled before they joined. A cancelled joiner leaves at once; the request goes on for
/// the leader. When the leader is cancelled its request ends with it, the flight is abandoned, and
/// its joiners start again (one of them leads a new request).
///
/// `Waiter` is what gets resumed (a continuation in production, anything in tests).
struct FlightStateMachine<Waiter, Value> {
    enum State {
        /// The request is running; `departed` holds ids that left before they joined.
        case running(waiters: [(id: Int, waiter: Waiter)], departed: [Int])
        /// The request ended; late joiners get the value at once.
        case finished(Value)
        /// The leader was cancelled and its request with it: joiners must start a new flight.
        case abandoned
    }

    /// What a joining waiter must do.
    enum JoinAction {
        /// Registered: it is resumed by `finish` or `abandon` (or by `leave` when cancelled).
        case wait
        /// The result is already known: resume with it now.
        case resumeNow(Value)
        /// The waiter was cancelled: resume it with cancellation.
        case cancelled
        /// The flight was abandoned before this waiter joined: start a new one.
        case abandoned
    }

    private(set) var state: State = .running(waiters: [], departed: [])

    /// False once the flight was abandoned: a new caller must not join it.
    var acceptsJoiners: Bool {
        if case .abandoned = state { return false }
        return true
    }

    /// The number of registered waiters.
    var waiterCount: Int {
        if case .running(let waiters, _) = state { return waiters.count }
        return 0
    }

    mutating func join(id: Int, waiter: Waiter, isCancelled: Bool) -> JoinAction {
        switch state {
        case .running(var waiters, var departed):
            if isCancelled {
                return .cancelled
            }
            if let index = departed.firstIndex(of: id) {
                departed.remove(at: index)
                state = .running(waiters: waiters, departed: departed)
                return .cancelled
            }
            waiters.append((id, waiter))
            state = .running(waiters: waiters, departed: departed)
            return .wait
        case .finished(let value):
            return .resumeNow(value)
        case .abandoned:
            return .abandoned
        }
    }

    /// A cancelled waiter leaves: the waiter to resume with cancellation, if it had joined.
    mutating func leave(id: Int) -> Waiter? {
        guard case .running(var waiters, var departed) = state else { return nil }
        guard let index = waiters.firstIndex(where: { $0.id == id }) else {
            departed.append(id)
            state = .running(waiters: waiters, departed: departed)
            return nil
        }
        let waiter = waiters.remove(at: index).waiter
        state = .running(waiters: waiters, departed: departed)
        return waiter
    }

    /// The request ended: returns the waiters to resume with `value`, in the order of their ids.
    mutating func finish(_ value: Value) -> [Waiter] {
        guard case .running(let waiters, _) = state else { return [] }
        state = .finished(value)
        return waiters.sorted { $0.id < $1.id }.map(\.waiter)
    }

    /// The leader was cancelled: returns the waiters to send off to start again.
    mutating func abandon() -> [Waiter] {
        guard case .running(let waiters, _) = state else { return [] }
        state = .abandoned
        return waiters.sorted { $0.id < $1.id }.map(\.waiter)
    }
}
