import Foundation
import Synchronization
import Testing

@testable import BooksTrackEmbedding

@Suite struct PartnerThreadTests {
    /// Each half runs once; when the partner is free its half runs on another thread, and callers
    /// that find it busy (eight threads at once) run both halves themselves, never waiting forever.
    @Test func everyHalfRunsOnceWhateverTheContention() throws {
        try #require(PartnerThread.useful, "needs two processors")
        let caller = Thread.current
        let ranElsewhere = Mutex(false)
        PartnerThread.shared.split({ ranElsewhere.withLock { $0 = Thread.current != caller } }, {})
        #expect(ranElsewhere.withLock { $0 }, "the free partner took its half")

        let halves = Mutex([0, 0])
        let calls = 8 * 300
        DispatchQueue.concurrentPerform(iterations: calls) { _ in
            PartnerThread.shared.split({ halves.withLock { $0[0] += 1 } }, { halves.withLock { $0[1] += 1 } })
        }
        #expect(halves.withLock { $0 } == [calls, calls])
    }
}
