/// The waiters of one shared (coalesced) request and its result, as a pure state machine.
///
/// A waiter's registration and the request's completion can arrive in either order: the body of
/// `withCheckedThrowingContinuation` is not guaranteed to run on the actor that started the request,
/// so the request may finish before its first waiter is registered (seen under load as a GET that
/// never returned). The machine therefore keeps the result for late joiners, remembers waiters that
/// were cancelled before they joined, and reports when the last waiter left so the request is cancelled.
///
/// `Waiter` is what gets resumed (a continuation in production, anything in tests).
struct FlightStateMachine<Waiter, Value> {
    enum State {
        /// The request is running; `departed` holds ids that left before they joined.
        case running(waiters: [Int: Waiter], departed: Set<Int>)
        /// The request ended; late joiners get the value at once.
        case finished(Value)
        /// Every waiter left and the request was cancelled: joiners must start a new flight.
        case abandoned
    }

    /// What a joining waiter must do.
    enum JoinAction {
        /// Registered: it is resumed by `finish` (or by `leave` when cancelled).
        case wait
        /// The result is already known: resume with it now.
        case resumeNow(Value)
        /// The waiter was cancelled: resume it with cancellation; cancel the request if asked.
        case cancelled(cancelRequest: Bool)
        /// The flight was abandoned before this waiter joined: start a new one.
        case abandoned
    }

    /// What a leaving (cancelled) waiter must do.
    enum LeaveAction {
        /// Nothing to resume (not joined yet, or the flight already ended).
        case none
        /// Resume this waiter with cancellation; cancel the request if it was the last one.
        case resumeCancelled(Waiter, cancelRequest: Bool)
    }

    private(set) var state: State = .running(waiters: [:], departed: [])

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
            if isCancelled || departed.contains(id) {
                departed.remove(id)
                if waiters.isEmpty {
                    state = .abandoned
                    return .cancelled(cancelRequest: true)
                }
                state = .running(waiters: waiters, departed: departed)
                return .cancelled(cancelRequest: false)
            }
            waiters[id] = waiter
            state = .running(waiters: waiters, departed: departed)
            return .wait
        case .finished(let value):
            return .resumeNow(value)
        case .abandoned:
            return .abandoned
        }
    }

    mutating func leave(id: Int) -> LeaveAction {
        guard case .running(var waiters, var departed) = state else { return .none }
        guard let waiter = waiters.removeValue(forKey: id) else {
            departed.insert(id)
            state = .running(waiters: waiters, departed: departed)
            return .none
        }
        if waiters.isEmpty {
            state = .abandoned
            return .resumeCancelled(waiter, cancelRequest: true)
        }
        state = .running(waiters: waiters, departed: departed)
        return .resumeCancelled(waiter, cancelRequest: false)
    }

    /// The request ended: returns the waiters to resume with `value`.
    mutating func finish(_ value: Value) -> [Waiter] {
        guard case .running(let waiters, _) = state else { return [] }
        state = .finished(value)
        return waiters.sorted { $0.key < $1.key }.map(\.value)
    }
}
