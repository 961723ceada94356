import Foundation

/// Runs blocking work (libedit's `el_wgets`, `read(2)` on stdin) serially on one dedicated
/// `Thread`, so blocking never occupies a thread of Swift's cooperative pool.
///
/// Work is bridged to async code with a checked continuation. The thread ends when the
/// worker is shut down (explicitly, or when the owner deinitialises it).
final class BlockingWorker: @unchecked Sendable {
    // @unchecked: all mutable state is guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var stopped = false

    init(name: String) {
        let thread = Thread { [self] in self.loop() }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Runs `body` on the worker thread and returns its result.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            let accepted = enqueue { continuation.resume(returning: body()) }
            if !accepted {
                // Shut down: run inline rather than leaving the caller suspended forever.
                continuation.resume(returning: body())
            }
        }
    }

    /// Stops the thread after the queued jobs have run.
    func shutdown() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func enqueue(_ job: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if stopped { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty && stopped {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
