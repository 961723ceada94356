import Testing
@testable import BooksTrackClient

/// The coalescing flight's transitions, without I/O: waiters are strings, the value an Int.
@Suite struct FlightStateMachineTests {
    typealias Machine = FlightStateMachine<String, Int>

    @Test func joinedWaitersAreResumedInJoinOrderWhenTheRequestEnds() {
        var m = Machine()
        guard case .wait = m.join(id: 2, waiter: "b", isCancelled: false) else { Issue.record("b"); return }
        guard case .wait = m.join(id: 1, waiter: "a", isCancelled: false) else { Issue.record("a"); return }
        #expect(m.waiterCount == 2)
        #expect(m.finish(42) == ["a", "b"])
        #expect(m.finish(43) == [], "a second finish resumes nobody")
    }

    /// The hang seen under load: the request ended before its first waiter was registered.
    @Test func aWaiterJoiningAfterTheRequestEndedGetsTheResultAtOnce() {
        var m = Machine()
        #expect(m.finish(7) == [])
        guard case .resumeNow(let value) = m.join(id: 1, waiter: "late", isCancelled: false) else {
            Issue.record("a late joiner must not wait")
            return
        }
        #expect(value == 7)
        #expect(m.acceptsJoiners)
    }

    @Test func theLastWaiterLeavingAbandonsTheFlightAndCancelsTheRequest() {
        var m = Machine()
        _ = m.join(id: 1, waiter: "a", isCancelled: false)
        _ = m.join(id: 2, waiter: "b", isCancelled: false)
        guard case .resumeCancelled("a", cancelRequest: false) = m.leave(id: 1) else {
            Issue.record("a leaves, b still waits")
            return
        }
        #expect(m.acceptsJoiners)
        guard case .resumeCancelled("b", cancelRequest: true) = m.leave(id: 2) else {
            Issue.record("the last waiter cancels the request")
            return
        }
        #expect(!m.acceptsJoiners)
        guard case .abandoned = m.join(id: 3, waiter: "c", isCancelled: false) else {
            Issue.record("a joiner of an abandoned flight starts a new one")
            return
        }
        #expect(m.finish(1) == [], "the cancelled request's end resumes nobody")
    }

    @Test func aWaiterCancelledBeforeItJoinedIsNotRegistered() {
        var m = Machine()
        _ = m.join(id: 1, waiter: "a", isCancelled: false)
        guard case .none = m.leave(id: 2) else { Issue.record("nothing to resume yet"); return }
        guard case .cancelled(cancelRequest: false) = m.join(id: 2, waiter: "b", isCancelled: false) else {
            Issue.record("b left before it joined")
            return
        }
        #expect(m.waiterCount == 1)
        #expect(m.finish(5) == ["a"])
    }

    @Test func theOnlyWaiterCancelledBeforeItJoinedAbandonsTheFlight() {
        var m = Machine()
        _ = m.leave(id: 1)
        guard case .cancelled(cancelRequest: true) = m.join(id: 1, waiter: "a", isCancelled: false) else {
            Issue.record("nobody is left to wait for the request")
            return
        }
        #expect(!m.acceptsJoiners)
    }

    @Test func aJoinerWhoseTaskIsAlreadyCancelledIsNotRegistered() {
        var m = Machine()
        _ = m.join(id: 1, waiter: "a", isCancelled: false)
        guard case .cancelled(cancelRequest: false) = m.join(id: 2, waiter: "b", isCancelled: true) else {
            Issue.record("a cancelled joiner leaves at once")
            return
        }
        #expect(m.waiterCount == 1)
    }

    @Test func leavingAfterTheRequestEndedChangesNothing() {
        var m = Machine()
        _ = m.join(id: 1, waiter: "a", isCancelled: false)
        #expect(m.finish(3) == ["a"])
        guard case .none = m.leave(id: 1) else { Issue.record("already resumed"); return }
        guard case .resumeNow(3) = m.join(id: 2, waiter: "b", isCancelled: false) else {
            Issue.record("the result is kept")
            return
        }
    }

    /// Every interleaving of join / leave / finish for two waiters resumes each waiter exactly once.
    @Test func everyInterleavingResumesEachWaiterExactlyOnce() {
        enum Step: CaseIterable { case joinA, joinB, leaveA, finish }
        func permutations(_ items: [Step]) -> [[Step]] {
            if items.count <= 1 { return [items] }
            var all: [[Step]] = []
            for i in items.indices {
                var rest: [Step] = items
                let head: Step = rest.remove(at: i)
                for tail in permutations(rest) { all.append([head] + tail) }
            }
            return all
        }
        for order in permutations(Step.allCases) {
            var m = Machine()
            var resumed: [String: Int] = [:]
            var startsAgain = false
            for step in order {
                switch step {
                case .joinA, .joinB:
                    let name = step == .joinA ? "a" : "b"
                    switch m.join(id: name == "a" ? 1 : 2, waiter: name, isCancelled: false) {
                    case .wait: break
                    case .resumeNow, .cancelled: resumed[name, default: 0] += 1
                    case .abandoned: startsAgain = true
                    }
                case .leaveA:
                    if case .resumeCancelled(let w, _) = m.leave(id: 1) { resumed[w, default: 0] += 1 }
                case .finish:
                    for w in m.finish(9) { resumed[w, default: 0] += 1 }
                }
            }
            #expect(resumed["a"] == 1, "a in \(order)")
            #expect(resumed["b"] == 1 || startsAgain, "b in \(order)")
            #expect(resumed.values.allSatisfy { $0 == 1 }, "\(order)")
        }
    }
}
