import Foundation
import NIOCore
import Synchronization
import Testing

@testable import BooksTrackClient

/// The deadline timer of `HTTPTransport.within`: on the client's event loop, or on dispatch when
/// the request is answered in this process (no event loop is started for it).
struct DeadlineTimerTests {
    /// Waits (up to 10 s) until `counter` is not zero.
    private static func waitForFiring(_ counter: borrowing Mutex<Int>) async throws {
        for _ in 0..<1000 where counter.withLock({ $0 }) == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// A timer fires once: a second timer, due after it, is seen firing after it did (and it did not again).
    @Test(arguments: [false, true]) func firesOnce(onEventLoop: Bool) async throws {
        let loop = onEventLoop ? ClientEventLoop.executor.loop : nil
        let fired = Mutex(0)
        let witnessFired = Mutex(0)
        _ = DeadlineTimer(in: 20_000_000, on: loop) { fired.withLock { $0 += 1 } }
        _ = DeadlineTimer(in: 60_000_000, on: loop) { witnessFired.withLock { $0 += 1 } }
        try await Self.waitForFiring(witnessFired)
        #expect(fired.withLock { $0 } == 1)
    }

    /// A cancelled timer stays silent past its time: a second timer, due after it, is seen firing first.
    @Test(arguments: [false, true]) func aCancelledTimerNeverFires(onEventLoop: Bool) async throws {
        let loop = onEventLoop ? ClientEventLoop.executor.loop : nil
        let cancelledFired = Mutex(0)
        let witnessFired = Mutex(0)
        let cancelled = DeadlineTimer(in: 20_000_000, on: loop) { cancelledFired.withLock { $0 += 1 } }
        cancelled.cancel()
        _ = DeadlineTimer(in: 60_000_000, on: loop) { witnessFired.withLock { $0 += 1 } }
        try await Self.waitForFiring(witnessFired)
        #expect(witnessFired.withLock { $0 } == 1)
        #expect(cancelledFired.withLock { $0 } == 0)
    }
}
