import CSwiftRuntimeHooks
import NIOCore
import NIOPosix

/// Swift's global executor on NIO's event loops, for the whole bts process, where they are.
///
/// A job bound for the global executor and enqueued on an event loop's thread runs on that loop;
/// any other goes to Swift's own pool. So a response read on a loop resumes its task
/// right there, and the task stays: moving between an actor and nonisolated code is then the
/// runtime's direct switch. A command that does no I/O (`help`) starts no loop for this. Rather
/// than a task preferring one loop (`Task(executorPreference:)`): with a preferred executor the
/// runtime enqueues a job at *every* change of isolation, each a closure and a trip through the
/// loop's queue (docs/performance.md).
///
/// Jobs run as jobs of the generic executor (as on Swift's own pool), not of a serial executor:
/// so the runtime may switch to an actor or back on the same thread without enqueueing.
enum EventLoopGlobalExecutor {
    /// True when the hook is installed (installed on first read: read it before any task runs).
    /// When it could not be, the shell's work prefers the API client's loop instead
    /// (`ClientEventLoop`).
    static let isInstalled = install()

    /// Installs the hook; false when it could not be (another hook was there, or the runtime's
    /// executor reference is not the two-word value this relies on).
    private static func install() -> Bool {
        guard MemoryLayout<UnownedSerialExecutor>.size == MemoryLayout<(Int, Int)>.size else { return false }
        let hook: @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void = { job, original in
            guard let loop = MultiThreadedEventLoopGroup.currentEventLoop else { return original(job) }
            loop.execute { job.runSynchronously(on: EventLoopGlobalExecutor.generic) }
        }
        return bts_install_enqueue_global_hook(unsafeBitCast(hook, to: UnsafeMutableRawPointer.self)) == 1
    }

    /// The runtime's generic executor (`SerialExecutorRef::generic()`: no identity, no witness
    /// table), which `swift_job_run` treats as "no isolation, switching allowed".
    static let generic = unsafeBitCast((0, 0), to: UnownedSerialExecutor.self)
}
