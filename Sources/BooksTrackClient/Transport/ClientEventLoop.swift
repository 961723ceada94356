import NIOCore
import NIOPosix
import Synchronization

/// The event loop a command-line process gives its API clients (`APIConfiguration.executor`), and
/// a task executor that runs Swift jobs on that loop.
///
/// When the work that calls the API runs there too (`Task(executorPreference:)`), a request is
/// sent, answered, decoded and rendered on one thread: no hand-off between the loop and Swift's
/// global pool per response, which costs context switches. Anything that blocks then delays only
/// this process's own I/O, which a sequential shell waits for anyway.
package enum ClientEventLoop {
    /// One of NIO's shared loops, started by the first API client that uses it (a command that
    /// never talks to a server, such as `help`, starts no thread).
    package static let executor = EventLoopTaskExecutor { NIOSingletons.posixEventLoopGroup.next() }
}

/// A `TaskExecutor` over a NIO event loop: each job runs as one task of the loop. Created lazily,
/// it runs jobs on Swift's global pool until something asks for `loop`.
package final class EventLoopTaskExecutor: TaskExecutor {
    private let resolve: @Sendable () -> any EventLoop
    private let resolved: Mutex<(any EventLoop)?>

    /// An executor on `loop`.
    package init(_ loop: any EventLoop) {
        resolve = { loop }
        resolved = Mutex(loop)
    }

    /// An executor whose loop is `resolve()`, called once, when `loop` is first read.
    package init(resolve: @escaping @Sendable () -> any EventLoop) {
        self.resolve = resolve
        resolved = Mutex(nil)
    }

    /// The loop (resolved on first use).
    package var loop: any EventLoop {
        resolved.withLock { current in
            if let current { return current }
            let loop = resolve()
            current = loop
            return loop
        }
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        guard let loop = resolved.withLock({ $0 }) else {
            globalConcurrentExecutor.enqueue(job)
            return
        }
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

extension Task where Failure == Never, Success: Sendable {
    /// `Task(executorPreference:)`, except that no executor means no preference: Swift 6.3 gives a
    /// task made with `executorPreference: nil` a preference record all the same, and each of its
    /// switches between isolations then takes the task's status lock, dozens of times a lookup.
    package static func preferring(
        _ executor: (any TaskExecutor)?,
        _ operation: @escaping @Sendable () async -> Success
    ) -> Self {
        if let executor { return Task(executorPreference: executor, operation: operation) }
        return Task(operation: operation)
    }
}
