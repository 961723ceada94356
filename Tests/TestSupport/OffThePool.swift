import Foundation

/// Runs blocking `work` (waiting for a process, reading its pipes, blocking socket calls) on a
/// thread of its own. The cooperative pool has as many threads as cores (2 here): a test that
/// blocks one of them stalls every other test of the process, the in-process servers included.
/// Non-throwing `work` makes a non-throwing call (`E` is `Never`).
package func offThePool<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
    let result: Result<T, E> = await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: Result { () throws(E) -> T in try work() }) }
    }
    return try result.get()
}
