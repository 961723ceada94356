import Foundation
import Testing

/// Threads of the tests' own for CPU-bound work, so that it never runs on Swift's cooperative pool.
///
/// The pool has as many threads as cores (2 here), and Swift Testing runs every suite on it at once:
/// a synchronous test that computes for seconds (the relevance sets running the sentence model over
/// the real catalog, catalog builds, fuzz loops) holds a pool thread all that time, and two of them
/// stop every other test of the process, the in-process servers and clients included, until their
/// requests time out. Tests marked `.onWorkThreads` run here instead (Swift's task executor
/// preference): at most `count` at a time, beside the pool rather than on it.
package final class WorkThreads: TaskExecutor, @unchecked Sendable {
    /// The tests' work threads: one per core, at least two.
    package static let shared = WorkThreads(count: max(2, ProcessInfo.processInfo.activeProcessorCount))

    /// The jobs waiting for a thread, guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private let condition = NSCondition()

    init(count: Int) {
        for index in 0..<count { start(name: "bts-test-work-\(index)") }
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func next() -> UnownedJob {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty { condition.wait() }
        return jobs.removeFirst()
    }

    private func start(name: String) {
        let thread = Thread { [self] in
            while true { next().runSynchronously(on: asUnownedTaskExecutor()) }
        }
        thread.name = name
        // A main thread's stack: the parser's depth tests recurse deeply.
        thread.stackSize = 16 << 20
        thread.start()
    }
}

/// Runs each test of a suite (or a test) on `WorkThreads` (see there).
package struct WorkThreadsTrait: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(WorkThreads.shared) { try await function() }
    }
}

extension Trait where Self == WorkThreadsTrait {
    /// CPU-bound tests: run on the tests' own threads, not on Swift's cooperative pool.
    package static var onWorkThreads: Self { Self() }
}
