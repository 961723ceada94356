import Synchronization

/// Resolves once with the bound port or the start error; `value()` waits for it.
final class StartSignal: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Int, any Error>])
        case done(Result<Int, any Error>)
    }

    private let state = Mutex(State.waiting([]))

    func resolve(_ result: Result<Int, any Error>) {
        let waiters: [CheckedContinuation<Int, any Error>] = state.withLock { state in
            guard case .waiting(let waiters) = state else { return [] }
            state = .done(result)
            return waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    func value() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Int, any Error>? = state.withLock { state in
                switch state {
                case .waiting(let waiters):
                    state = .waiting(waiters + [continuation])
                    return nil
                case .done(let result):
                    return result
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
