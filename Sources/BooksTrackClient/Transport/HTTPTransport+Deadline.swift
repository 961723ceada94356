import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

extension HTTPTransport {
    /// Runs `operation` until `deadline`: past it the operation is cancelled and this throws
    /// `deadlineExceeded`, as the HTTP client does for a request's head. The operation runs as a
    /// task on `executor` (nil: the global pool) and the deadline is a timer on the executor's event
    /// loop (a task group with a sleeping child would cost a dispatch timer and a thread wake-up per
    /// request); without an executor (answers from this process) a dispatch timer, so that such a
    /// request never starts NIO's event loop threads, which a one-shot command would pay for.
    static func within<T: Sendable>(
        _ deadline: ContinuousClock.Instant,
        on executor: EventLoopTaskExecutor?,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let race = DeadlineRace<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                race.start(continuation)
                let remaining = max(0, (deadline - .now).wholeNanoseconds)
                let timer = DeadlineTimer(in: remaining, on: executor?.loop) {
                    race.finish(.failure(HTTPClientError.deadlineExceeded))
                }
                race.attach(
                    Task.preferring(executor) {
                        let result: Result<T, any Error>
                        do { result = .success(try await operation()) } catch { result = .failure(error) }
                        timer.cancel()
                        race.finish(result)
                    }
                )
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }
}

/// The deadline of one `HTTPTransport.within` race: a task scheduled on an event loop, or on
/// dispatch's global queue when there is no loop.
struct DeadlineTimer: Sendable {
    private let cancelling: @Sendable () -> Void

    init(in nanoseconds: Int64, on loop: (any EventLoop)?, _ fire: @escaping @Sendable () -> Void) {
        if let loop {
            let scheduled = loop.scheduleTask(in: .nanoseconds(nanoseconds), fire)
            cancelling = { scheduled.cancel() }
        } else {
            // Dispatch's work items are thread-safe to cancel (Linux's Dispatch does not mark them Sendable).
            nonisolated(unsafe) let item = DispatchWorkItem(block: fire)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds)), execute: item)
            cancelling = { item.cancel() }
        }
    }

    func cancel() { cancelling() }
}

/// The state of one `HTTPTransport.within` race: the first outcome (the operation's, the deadline,
/// the caller's cancellation) resumes the caller once and cancels the operation's task.
final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var task: Task<Void, Never>?
        var decided = false
    }
    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        let decidedAlready = state.withLock { state in
            if state.decided { return true }
            state.continuation = continuation
            return false
        }
        // Cancelled before it began.
        if decidedAlready { continuation.resume(throwing: CancellationError()) }
    }

    func attach(_ task: Task<Void, Never>) {
        let cancelNow = state.withLock { state in
            state.task = task
            return state.decided
        }
        if cancelNow { task.cancel() }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, task) = state.withLock { state -> (CheckedContinuation<T, any Error>?, Task<Void, Never>?) in
            if state.decided { return (nil, nil) }
            state.decided = true
            defer { state.continuation = nil }
            return (state.continuation, state.task)
        }
        guard let continuation else { return }
        if case .failure = result { task?.cancel() }
        continuation.resume(with: result)
    }
}
