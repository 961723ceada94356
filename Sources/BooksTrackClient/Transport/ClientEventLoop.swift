import NIOCore
import NIOPosix

/// The event loop a command-line process gives its API clients (`APIConfiguration.executor`), and
/// a task executor that runs Swift jobs on that loop.
///
/// When the work that calls the API runs there too (`Task(executorPreference:)`), a request is
/// sent, answered, decoded and rendered on one thread: no hand-off between the loop and Swift's
/// global pool per response (a sequential lookup took ~11 context switches before, 2 now; see the
/// README's Benchmarks). Anything that blocks then delays only this process's own I/O, which a
/// sequential shell waits for anyway.
public enum ClientEventLoop {
    /// One of NIO's shared loops.
    public static let executor = EventLoopTaskExecutor(NIOSingletons.posixEventLoopGroup.next())
}

/// A `TaskExecutor` over a NIO event loop: each job runs as one task of the loop.
public final class EventLoopTaskExecutor: TaskExecutor {
    public let loop: any EventLoop

    public init(_ loop: any EventLoop) { self.loop = loop }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
