import Dispatch

/// Where job workers run: threads of their own (a concurrent dispatch queue at utility priority),
/// never the event loops that read requests. `bts serve` makes NIO's two event loops Swift's
/// global executor, so a worker started with `Task.detached` ran there: with 16 imports at work,
/// `/health` and title searches were answered 408 after the 10 s head time-out, every other
/// request (the connections of the busy loop). The engine's actor runs where its caller runs
/// (a default actor follows the task's executor preference), so the workers' calls into it stay
/// here too.
final class JobExecutor: TaskExecutor, Sendable {
    static let shared = JobExecutor()

    private let queue = DispatchQueue(label: "bts.jobs", qos: .utility, attributes: .concurrent)
    private static let marker = DispatchSpecificKey<Bool>()

    private init() {
        queue.setSpecific(key: Self.marker, value: true)
    }

    /// True on one of the workers' threads.
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
