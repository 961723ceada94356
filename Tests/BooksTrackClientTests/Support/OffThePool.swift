import Foundation

/// Runs blocking `work` (waiting for a process, reading its pipes) on a thread of its own. The
/// cooperative pool has as many threads as cores (2 here): a test that blocks one of them stalls
/// every other test of the process, the in-process servers included.
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
