import BooksTrackClient
import BooksTrackContract
import Foundation
import Hummingbird
import Synchronization
import Testing

/// Coalesced GETs against a live server, fast enough to race the waiter's registration.
@Suite struct CoalescingLiveTests {
    /// Under load a coalesced GET once never returned: the request ended before its waiter was
    /// registered. 4 × 300 back-to-back requests (half of them fast 404s) must all come back.
    @Test func backToBackCoalescedRequestsAllReturn() async throws {
        try await TinyServer.with({ router in
            router.get("/v1/search/title") { request, _ in
                let q: String = request.uri.queryParameters.get("q") ?? ""
                let odd: Bool = (q.last?.wholeNumberValue ?? 0) % 2 == 1
                if odd {
                    return Reply.json(
                        #"{"success":false,"error":{"code":"NOT_FOUND","message":"No books found"}}"#,
                        status: .notFound
                    )
                }
                return Reply.json(okSearch)
            }
        }) { server in
            let api = makeAPI(server.baseURL) { $0.coalescesRequests = true }
            // Threads that spin keep the cores contended, as in the parallel runs where the hang was seen.
            let spinning = Atomic<Bool>(true)
            let spinners = (0..<4).map { _ in
                let thread = Thread {
                    var x = 0
                    // Bounded on its own too, to the first 5 s of the run: four spinners on two
                    // cores starve every other test of a parallel run, and for 30 s (as this was)
                    // others' 25 s request deadlines ran out (seen twice in full runs).
                    let end = Date().addingTimeInterval(5)
                    while spinning.load(ordering: .relaxed) {
                        x &+= 1
                        if x % 1_000_000 == 0, Date() > end { break }
                    }
                    _ = x
                }
                thread.start()
                return thread
            }
            defer {
                spinning.store(false, ordering: .relaxed)
                _ = spinners
            }
            let returned = HitCounter()
            let work = Task {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for worker in 0..<4 {
                        group.addTask { try await Self.lookups(api, worker: worker, count: 300, returned: returned) }
                    }
                    return try await group.reduce(0, +)
                }
            }
            // A hung waiter cannot be cancelled out of (that was the bug), so the bound must not
            // wait for the work to end: the test fails and leaves the stuck task behind. It fails
            // when no request has returned for 60 s (a hung one never does), not when all of them
            // take long: a loaded machine makes 1,200 requests slow, never stuck.
            let finished =
                await Self.value(
                    of: work,
                    whileProgressing: { returned.count("returned") },
                    stallLimit: .seconds(60)
                ) ?? -1
            #expect(finished == 1_200, "a coalesced request never returned (\(returned.count("returned")) did)")
            #expect(await api.statistics.requestsSent == 1_200)
            await api.shutdown()
        }
    }

    /// `count` back-to-back title searches; a 404 counts as returned (and is counted in `returned`).
    static func lookups(_ api: BooksTrackAPI, worker: Int, count: Int, returned: HitCounter) async throws -> Int {
        var done = 0
        for i in 0..<count {
            do {
                _ = try await api.searchTitle("w\(worker) q\(i)")
            } catch {
                if error.httpStatus != 404 { throw error }
            }
            done += 1
            returned.hit("returned")
        }
        return done
    }

    /// The task's value, or nil once `progress()` has not changed for `stallLimit` before the task
    /// finished (the task is not awaited then).
    static func value(
        of task: Task<Int, any Error>,
        whileProgressing progress: () -> Int,
        stallLimit: Duration
    ) async -> Int? {
        let outcome = Mutex<Int??>(nil)
        let waiter = Task {
            let value = try? await task.value
            outcome.withLock { $0 = .some(value) }
        }
        var seen = progress()
        var lastChange = ContinuousClock.now
        while true {
            if let finished = outcome.withLock({ $0 }) { return finished }
            let now = progress()
            if now != seen {
                seen = now
                lastChange = ContinuousClock.now
            } else if ContinuousClock.now - lastChange > stallLimit {
                _ = waiter
                return nil
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// A title route whose first request waits for `gate`; later ones are answered at once.
    static func firstAnswerGated(_ hits: HitCounter, _ gate: Gate) -> (Router<BasicRequestContext>) -> Void {
        { router in
            router.get("/v1/search/title") { _, _ in
                hits.hit("title")
                if hits.count("title") == 1 { await gate.wait() }
                return Reply.json(okSearch)
            }
        }
    }

    /// Starts a leader and, once the server has its request, a joiner of it; cancels the leader or
    /// the joiner and expects it back with a cancellation before the server answers. Returns the
    /// other one (nil when the expectation failed, recorded).
    static func cancelOneOfTwo(
        _ api: BooksTrackAPI,
        hits: HitCounter,
        leader cancelsLeader: Bool
    ) async throws -> Task<APIResponse<SearchResults>, any Error>? {
        let leader = Task { try await api.searchTitle("dune") }
        while hits.count("title") == 0 { try await Task.sleep(for: .milliseconds(10)) }
        let joiner = Task { try await api.searchTitle("dune") }
        while await api.statistics.coalesced == 0 { try await Task.sleep(for: .milliseconds(10)) }
        let (cancelled, other) = cancelsLeader ? (leader, joiner) : (joiner, leader)
        cancelled.cancel()
        guard let left = await result(of: cancelled, within: .seconds(60)) else {
            Issue.record("the cancelled caller waited for the server's answer")
            return nil
        }
        guard case .failure(let error) = left else {
            Issue.record("the cancelled caller got a result the server never sent")
            return nil
        }
        #expect((error as? BooksTrackError)?.isCancellation == true)
        return other
    }

    /// The task's result, or nil when it has not finished within `limit` (the task is not awaited):
    /// a bound on a hang, never a measure of speed.
    static func result<T: Sendable>(of task: Task<T, any Error>, within limit: Duration) async -> Result<T, any Error>?
    {
        let (stream, sink) = AsyncStream<Result<T, any Error>?>.makeStream()
        let waiter = Task { sink.yield(await task.result) }
        let timer = Task {
            try? await Task.sleep(for: limit)
            sink.yield(nil)
        }
        var first: Result<T, any Error>?? = nil
        for await value in stream {
            first = value
            break
        }
        timer.cancel()
        _ = waiter
        return first ?? nil
    }

    /// A joiner that is cancelled leaves at once (before the server answers); the leader still gets
    /// the shared result. The server answers only when the test opens the gate, after the leaver
    /// returned: no race with the clock.
    @Test func aCancelledJoinerLeavesWhileTheLeaderGetsTheResult() async throws {
        let hits = HitCounter()
        let gate = Gate()
        try await TinyServer.with({ router in
            router.get("/v1/search/title") { _, _ in
                hits.hit("title")
                await gate.wait()
                hits.hit("answered")
                return Reply.json(okSearch)
            }
        }) { server in
            defer { gate.open() }  // before the server's graceful shutdown waits for the handler
            let api = makeAPI(server.baseURL) { $0.coalescesRequests = true }
            // The server cannot answer before the gate opens: the leaver must return without it.
            guard let stayer = try await Self.cancelOneOfTwo(api, hits: hits, leader: false) else { return }
            gate.open()
            _ = try await stayer.value
            #expect(hits.count("title") == 1, "the shared request was not cancelled for the remaining waiter")
            #expect(hits.count("answered") == 1)
            await api.shutdown()
        }
    }

    /// A cancelled leader returns at once and its request ends with it; its joiner starts a new
    /// request and gets that one's answer.
    @Test func aCancelledLeadersJoinerStartsAgain() async throws {
        let hits = HitCounter()
        let gate = Gate()
        try await TinyServer.with(Self.firstAnswerGated(hits, gate)) { server in
            defer { gate.open() }  // before the server's graceful shutdown waits for the handler
            let api = makeAPI(server.baseURL) { $0.coalescesRequests = true }
            guard let joiner = try await Self.cancelOneOfTwo(api, hits: hits, leader: true) else { return }
            guard let joined = await Self.result(of: joiner, within: .seconds(60)) else {
                Issue.record("the joiner never came back")
                return
            }
            guard case .success(let response) = joined else {
                Issue.record("the joiner failed: \(joined)")
                return
            }
            #expect(!response.info.coalesced, "the joiner's answer is its own new request's")
            #expect(hits.count("title") == 2)
            await api.shutdown()
        }
    }

    /// When its only caller leaves, the request itself is cancelled and the next caller starts
    /// afresh (it does not join the abandoned request and inherit its cancellation). The first request is
    /// never answered (until the test ends).
    @Test func whenEveryWaiterLeavesTheNextCallerStartsANewRequest() async throws {
        let hits = HitCounter()
        let gate = Gate()
        try await TinyServer.with(Self.firstAnswerGated(hits, gate)) { server in
            defer { gate.open() }  // before the server's graceful shutdown waits for the handler
            let api = makeAPI(server.baseURL) { $0.coalescesRequests = true }
            let first = Task { try await api.searchTitle("dune") }
            while hits.count("title") == 0 { try await Task.sleep(for: .milliseconds(10)) }
            first.cancel()
            guard let abandoned = await Self.result(of: first, within: .seconds(60)) else {
                Issue.record("the cancelled caller waited for the server's answer")
                return
            }
            guard case .failure = abandoned else {
                Issue.record("the cancelled caller got a result the server never sent")
                return
            }
            let second = try await api.searchTitle("dune")
            #expect(!second.info.coalesced)
            #expect(hits.count("title") == 2)
            await api.shutdown()
        }
    }
}

/// A latch a tiny server's handler waits on until the test opens it.
final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
