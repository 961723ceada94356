import Foundation
import Synchronization
import Hummingbird
import Testing
@testable import BooksTrackClient

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
                        #"{"success":false,"error":{"code":"NOT_FOUND","message":"No books found"}}"#, status: .notFound)
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
                    // Bounded on its own too: a stuck test must not leave cores spinning.
                    let end = Date().addingTimeInterval(30)
                    while spinning.load(ordering: .relaxed) {
                        x &+= 1
                        if x % 1_000_000 == 0, Date() > end { break }
                    }
                    _ = x
                }
                thread.start()
                return thread
            }
            defer { spinning.store(false, ordering: .relaxed); _ = spinners }
            let work = Task {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for worker in 0..<4 {
                        group.addTask { try await Self.lookups(api, worker: worker, count: 300) }
                    }
                    return try await group.reduce(0, +)
                }
            }
            // A hung waiter cannot be cancelled out of (that was the bug), so the bound must not
            // wait for the work to end: the test fails and leaves the stuck task behind.
            let finished = await Self.value(of: work, within: .seconds(60)) ?? -1
            #expect(finished == 1_200, "a coalesced request never returned")
            #expect(await api.statistics.requestsSent == 1_200)
            await api.shutdown()
        }
    }

    /// `count` back-to-back title searches; a 404 counts as returned.
    static func lookups(_ api: BooksTrackAPI, worker: Int, count: Int) async throws -> Int {
        var done = 0
        for i in 0..<count {
            do {
                _ = try await api.searchTitle("w\(worker) q\(i)")
            } catch {
                if error.httpStatus != 404 { throw error }
            }
            done += 1
        }
        return done
    }

    /// The task's value, or nil when it has not finished within `limit` (the task is not awaited).
    static func value(of task: Task<Int, any Error>, within limit: Duration) async -> Int? {
        let (stream, sink) = AsyncStream<Int?>.makeStream()
        let waiter = Task { sink.yield(try? await task.value) }
        let timer = Task {
            try? await Task.sleep(for: limit)
            sink.yield(nil)
        }
        var first: Int?? = nil
        for await value in stream {
            first = value
            break
        }
        timer.cancel()
        _ = waiter
        return first ?? nil
    }

    /// A waiter that is cancelled leaves at once (before the server answers); the others still get
    /// the shared result.
    @Test func aCancelledWaiterLeavesWhileTheOthersGetTheResult() async throws {
        let hits = HitCounter()
        try await TinyServer.with({ router in
            router.get("/v1/search/title") { _, _ in
                hits.hit("title")
                try await Task.sleep(for: .seconds(3))
                hits.hit("answered")
                return Reply.json(okSearch)
            }
        }) { server in
            let api = makeAPI(server.baseURL) { $0.coalescesRequests = true }
            let leaver = Task { try await api.searchTitle("dune") }
            let stayer = Task { try await api.searchTitle("dune") }
            while hits.count("title") == 0 { try await Task.sleep(for: .milliseconds(10)) }
            leaver.cancel()
            let left = await leaver.result
            #expect(hits.count("answered") == 0, "the cancelled waiter waited for the server's answer")
            guard case .failure(let error) = left else {
                Issue.record("the cancelled waiter got a result")
                return
            }
            #expect((error as? BooksTrackError)?.isCancellation == true)
            _ = try await stayer.value
            #expect(hits.count("title") == 1, "the shared request was not cancelled for the remaining waiter")
            await api.shutdown()
        }
    }

    /// When every waiter leaves, the request itself is cancelled and the next caller starts afresh
    /// (it does not join the abandoned request and inherit its cancellation).
    @Test func whenEveryWaiterLeavesTheNextCallerStartsANewRequest() async throws {
        let hits = HitCounter()
        try await TinyServer.with({ router in
            router.get("/v1/search/title") { _, _ in
                hits.hit("title")
                if hits.count("title") == 1 { try await Task.sleep(for: .seconds(3)) }
                return Reply.json(okSearch)
            }
        }) { server in
            let api = makeAPI(server.baseURL) { $0.coalescesRequests = true }
            let first = Task { try await api.searchTitle("dune") }
            while hits.count("title") == 0 { try await Task.sleep(for: .milliseconds(10)) }
            first.cancel()
            _ = await first.result
            let second = try await api.searchTitle("dune")
            #expect(!second.info.coalesced)
            #expect(hits.count("title") == 2)
            await api.shutdown()
        }
    }
}
