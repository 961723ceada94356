import Testing

@testable import BooksTrackClient

/// The coalescing flight's transitions, without I/O: waiters are strings, the value an Int.
@Suite struct FlightStateMachineTests {
    typealias Machine = FlightStateMachine<String, Int>

    @Test func joinedWaitersAreResumedInJoinOrderWhenTheRequestEnds() {
        var m = Machine()
        guard case .wait = m.join(id: 2, waiter: "b", isCancelled: false) else {
            Issue.record("b")
            return
        }
        guard case .wait = m.join(id: 1, waiter: "a", isCancelled: false) else {
            Issue.record("a")
            return
        }
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

    /// A joiner leaving never ends the request: the leader still wants it, and a later caller
    /// may still join.
    @Test func joinersLeavingKeepTheFlightForTheLeader() {
        var m = Machine()
        _ = m.join(id: 1, waiter: "a", isCancelled: false)
        _ = m.join(id: 2, waiter: "b", isCancelled: false)
        #expect(m.leave(id: 1) == "a")
        #expect(m.leave(id: 2) == "b")
        #expect(m.acceptsJoiners)
        guard case .wait = m.join(id: 3, waiter: "c", isCancelled: false) else {
            Issue.record("a new caller joins the running request")
            return
        }
        #expect(m.finish(1) == ["c"], "only the waiter still there is resumed")
    }

    /// The leader was cancelled, its request with it: the joiners start again, and so does a
    /// later caller.
    @Test func anAbandonedFlightSendsItsJoinersOff() {
        var m = Machine()
        _ = m.join(id: 2, waiter: "b", isCancelled: false)
        _ = m.join(id: 1, waiter: "a", isCancelled: false)
        #expect(m.abandon() == ["a", "b"])
        #expect(!m.acceptsJoiners)
        guard case .abandoned = m.join(id: 3, waiter: "c", isCancelled: false) else {
            Issue.record("a joiner of an abandoned flight starts a new one")
            return
        }
        #expect(m.finish(1) == [], "nobody is left to resume")
        #expect(m.abandon() == [])
    }

    @Test func aWaiterCancelledBeforeItJoinedIsNotRegistered() {
        var m = Machine()
        _ = m.join(id: 1, waiter: "a", isCancelled: false)
        #expect(m.leave(id: 2) == nil, "nothing to resume yet")
        guard case .cancelled = m.join(id: 2, waiter: "b", isCancelled: false) else {
            Issue.record("b left before it joined")
            return
        }
        #expect(m.waiterCount == 1)
        #expect(m.finish(5) == ["a"])
    }

    @Test func aJoinerWhoseTaskIsAlreadyCancelledIsNotRegistered() {
        var m = Machine()
        _ = m.join(id: 1, waiter: "a", isCancelled: false)
        guard case .cancelled = m.join(id: 2, waiter: "b", isCancelled: true) else {
            Issue.record("a cancelled joiner leaves at once")
            return
        }
        #expect(m.waiterCount == 1)
    }

    @Test func leavingAfterTheRequestEndedChangesNothing() {
        var m = Machine()
        _ = m.join(id: 1, waiter: "a", isCancelled: false)
        #expect(m.finish(3) == ["a"])
        #expect(m.leave(id: 1) == nil, "already resumed")
        guard case .resumeNow(3) = m.join(id: 2, waiter: "b", isCancelled: false) else {
            Issue.record("the result is kept")
            return
        }
    }

    /// Every interleaving of join / leave / finish (or abandon) for two waiters resumes each waiter
    /// exactly once, or sends it off to start again.
    @Test(arguments: [false, true]) func everyInterleavingResumesEachWaiterExactlyOnce(leaderCancelled: Bool) {
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
            var startsAgain: Set<String> = []
            for step in order {
                switch step {
                case .joinA, .joinB:
                    let name = step == .joinA ? "a" : "b"
                    switch m.join(id: name == "a" ? 1 : 2, waiter: name, isCancelled: false) {
                    case .wait: break
                    case .resumeNow, .cancelled: resumed[name, default: 0] += 1
                    case .abandoned: startsAgain.insert(name)
                    }
                case .leaveA:
                    if let w = m.leave(id: 1) { resumed[w, default: 0] += 1 }
                case .finish:
                    let ended = leaderCancelled ? m.abandon() : m.finish(9)
                    for w in ended {
                        if leaderCancelled { startsAgain.insert(w) } else { resumed[w, default: 0] += 1 }
                    }
                }
            }
            // a leaves (cancelled) or is resumed or sent off; b is resumed or sent off: once each.
            #expect((resumed["a"] ?? 0) + (startsAgain.contains("a") ? 1 : 0) == 1, "a in \(order)")
            #expect((resumed["b"] ?? 0) + (startsAgain.contains("b") ? 1 : 0) == 1, "b in \(order)")
            #expect(resumed.values.allSatisfy { $0 == 1 }, "\(order)")
        }
    }
}
