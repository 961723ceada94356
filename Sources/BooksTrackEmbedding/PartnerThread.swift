import Foundation
import Synchronization

/// One thread that takes half of a large product while the caller computes the other half: a
/// query's forward pass reads 42 MB of weights, and on a machine with a free core two halves end
/// in about half the time. OpenBLAS's own threads are off (`OpenBLAS.load`: they spin while they
/// wait); this thread sleeps on a semaphore between products. It serves one caller at a time: a
/// caller that finds it busy (a server embedding two queries at once) computes both halves itself.
final class PartnerThread: @unchecked Sendable {
    // @unchecked: `work` is written by the caller that won `busy` before `start` is signalled and
    // read by the partner after it waits on `start`; the caller reads nothing back until `done`.
    static let shared = PartnerThread()

    /// Whether a second processor is there to take half.
    static let useful = ProcessInfo.processInfo.activeProcessorCount > 1

    private let start = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let busy = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private var work: (() -> Void)?

    private init() {}

    /// Runs `partnerHalf` on the partner thread and `ownHalf` on this one, and returns when both
    /// are done; both on this thread when the machine has one processor or the partner is busy.
    func split(_ partnerHalf: () -> Void, _ ownHalf: () -> Void) {
        guard Self.useful, busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            partnerHalf()
            ownHalf()
            return
        }
        defer { busy.store(false, ordering: .releasing) }
        if !started.exchange(true, ordering: .relaxed) {
            Thread.detachNewThread { [self] in
                while true {
                    start.wait()
                    work?()
                    done.signal()
                }
            }
        }
        withoutActuallyEscaping(partnerHalf) { half in
            work = half
            start.signal()
            ownHalf()
            done.wait()
            work = nil
        }
    }
}
