import BooksTrackContract
import BooksTrackServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Testing

@testable import BooksTrackClient

/// Job tokens kept alive against the real server, with the contract's 2 h tokens (refreshable in
/// their last 30 min). Time is moved, never waited for: the job engine and the client read one
/// clock that the test sets forward (a loaded machine can stall the test process for many
/// seconds, so no expectation may depend on how much real time passes). The job is paced at one
/// item per 1000 s, so it is still running whenever the test looks.
@Suite struct TokenRefreshLiveTests {
    /// A wall clock the test moves forward, read by both the server's job engine and the client.
    final class MovableClock: Sendable {
        private let offset = SynchronizedBox<TimeInterval>(0)
        func now() -> Date { Date().addingTimeInterval(offset.value) }
        func advance(by duration: Duration) { offset.mutate { $0 += duration.timeInterval } }
    }

    static func modules(_ dir: URL, clock: MovableClock) -> [any ServerRouteModule] {
        LocalServer.defaultModules.filter { !($0 is JobRoutes) } + [
            JobRoutes(dataDirectory: dir, clock: ClosureJobClock { clock.now() }) { config in
                config.itemsPerSecond = 0.001
            }
        ]
    }

    static func configuration(_ url: URL, clock: MovableClock, refreshes: Bool = true) -> APIConfiguration {
        var configuration = APIConfiguration(baseURL: url, now: { clock.now() })
        configuration.refreshesJobTokens = refreshes
        return configuration
    }

    /// A slow 80-row import started on the live server (job clock `clock`), then `body`.
    static func withLongImport(
        refreshes: Bool,
        _ body: (BooksTrackAPI, APIResponse<ImportAccepted>, MovableClock) async throws -> Void
    ) async throws {
        let dir = try LiveJobTests.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("books.csv")
        try LiveJobTests.csv(rows: 80).write(to: file, atomically: true, encoding: .utf8)
        let clock = MovableClock()
        try await LiveServer.with(
            modules: Self.modules(dir, clock: clock),
            api: { Self.configuration($0, clock: clock, refreshes: refreshes) }
        ) { _, api in
            try await body(api, try await api.importCSV(fileAt: file), clock)
        }
    }

    /// A long job outlives its first token: the client refreshes it in the window, and a cancel
    /// after the first token's expiry still works (the server rejects the old token by then).
    @Test func aLongJobsTokenIsRefreshedAndCancelStillWorksAfterTheFirstExpired() async throws {
        try await Self.withLongImport(refreshes: true) { api, accepted, clock in
            let jobID = accepted.value.jobId
            let first = accepted.value.authToken
            #expect(await api.jobToken(for: jobID) == first)
            // The keeper waits for the window (1 h 30 min and its 5 s margin away); nothing refreshed yet.
            let wait = try #require(await api.untilNextRefresh())
            #expect(wait > .seconds(3600) && wait <= .seconds(5405))
            #expect(await api.statistics.tokenRefreshes == 0)

            // 1 h 31 min later the token is in its last 30 min. The keeper sleeps on real time, which
            // did not pass: wake it as that time passing would have.
            clock.advance(by: .seconds(5460))
            #expect(await api.untilNextRefresh() == .zero)
            await api.scheduleTokenKeeper()
            #expect(try await eventually { await api.statistics.tokenRefreshes >= 1 }, "the keeper never refreshed")
            #expect(await api.statistics.tokenRefreshes == 1)
            let current = try #require(await api.jobToken(for: jobID))
            #expect(current != first)
            // The refreshed token is good for 2 h from the refresh: the keeper's next turn is ~1.5 h away.
            #expect((await api.untilNextRefresh() ?? .zero) > .seconds(3600))

            // Past the first token's 2 h: the old token no longer works…
            clock.advance(by: .seconds(1800))
            #expect(await api.jobToken(for: jobID) == current)
            let refusal: BooksTrackError? = await {
                do throws(BooksTrackError) {
                    _ = try await api.refreshJobToken(jobID, oldToken: first)
                    return nil
                } catch { return error }
            }()
            #expect(refusal?.httpStatus == 401)
            // …but cancel, given the job's original token, presents the refreshed one.
            let cancelled = try await api.cancelJob(jobID, token: first)
            #expect(cancelled.value.status.rawValue == "canceled")
        }
    }

    /// Without refreshing, the same cancel is refused: the test above can fail.
    @Test func withoutRefreshTheExpiredTokenIsRefused() async throws {
        try await Self.withLongImport(refreshes: false) { api, accepted, clock in
            #expect(await api.untilNextRefresh() == nil, "no token is kept alive")
            clock.advance(by: .seconds(7260))
            #expect(await api.statistics.tokenRefreshes == 0)
            await #expect(throws: BooksTrackError.self) {
                _ = try await api.cancelJob(accepted.value.jobId, token: accepted.value.authToken)
            }
        }
    }

    /// A refreshed token's life is reckoned from when the refresh was sent: an answer that comes
    /// 10 min late does not move the next refresh 10 min later (it could miss the server's window).
    @Test func aSlowRefreshAnswerDoesNotPushTheNextRefreshLater() async throws {
        let clock = MovableClock()
        try await TinyServer.with({ router in
            router.post("/api/token/refresh") { _, _ in
                clock.advance(by: .seconds(600))  // the answer takes 10 min
                return Reply.json(#"{"success":true,"data":{"jobId":"job-1","token":"t2","expiresIn":7200}}"#)
            }
        }) { server in
            let api = makeAPI(server.baseURL) { $0.now = { clock.now() } }
            _ = try await api.refreshJobToken("job-1", oldToken: "t1")
            #expect(await api.jobToken(for: "job-1") == "t2")
            // Due 2 h − 30 min + 5 s after the request was sent, which was 10 min ago.
            let wait = try #require(await api.untilNextRefresh())
            #expect(wait > .seconds(3600) && wait <= .seconds(4805), "\(wait)")
            await api.shutdown()
        }
    }

    /// A cancel refused because a refresh in flight replaced its token on the server (the refresh's
    /// answer not in yet) waits for that answer and is repeated with the new token. The server
    /// answers the refresh only after it refused the cancel: the order is fixed, not timed.
    @Test func aCancelRacingARefreshWaitsForItsAnswer() async throws {
        let hits = HitCounter()
        let gate = Gate()
        let current = SynchronizedBox("t1")
        try await TinyServer.with({ router in
            router.post("/api/token/refresh") { _, _ in
                current.mutate { $0 = "t2" }  // the old token stops working at once…
                hits.hit("refresh")
                await gate.wait()  // …but the answer waits
                return Reply.json(#"{"success":true,"data":{"jobId":"job-1","token":"t2","expiresIn":7200}}"#)
            }
            router.delete("/v1/jobs/:id") { request, _ in
                hits.hit("cancel")
                guard request.headers[.authorization] == "Bearer \(current.value)" else {
                    return Reply.json(
                        #"{"success":false,"error":{"code":"UNAUTHORIZED","message":"token does not match"}}"#,
                        status: .unauthorized
                    )
                }
                return Reply.json(
                    #"{"success":true,"data":{"jobId":"job-1","status":"canceled","message":"ok","cleanup":{}}}"#
                )
            }
        }) { server in
            defer { gate.open() }  // before the server's graceful shutdown waits for the handler
            let api = makeAPI(server.baseURL)
            await api.trackJobToken("job-1", token: "t1", requestedAt: Date())
            let refresh = Task { try await api.refreshJobToken("job-1", oldToken: "t1") }
            while hits.count("refresh") == 0 { try await Task.sleep(for: .milliseconds(10)) }
            let cancelEnded = SynchronizedBox(false)
            let cancel = Task {
                defer { cancelEnded.mutate { $0 = true } }
                return try await api.cancelJob("job-1", token: "t1")
            }
            // The DELETE with t1 was refused and the client took the refusal in (it waits for the
            // refresh, or gave up); only then does the refresh answer.
            #expect(
                try await eventually {
                    if cancelEnded.value { return true }
                    return await api.tokens.waiterCount("job-1") > 0
                }
            )
            gate.open()
            _ = try await refresh.value
            let cancelled = try await cancel.value
            #expect(cancelled.value.status == .canceled)
            #expect(hits.count("cancel") == 2, "repeated once, with the refreshed token")
            await api.shutdown()
        }
    }

    /// A profile token goes out as `Authorization: Bearer`, and the trace masks it.
    @Test func aBearerTokenIsSentAndMaskedInTheTrace() async throws {
        let seen = SynchronizedBox<[String]>([])
        let traced = SynchronizedBox<[String]>([])
        try await TinyServer.with({ router in
            router.get("/v1/search/title") { request, _ in
                seen.mutate { $0.append(request.headers[.authorization] ?? "") }
                return Reply.json(okSearch)
            }
        }) { server in
            let api = makeAPI(server.baseURL) {
                $0.bearerToken = "s3cret-profile-token"
                $0.trace = { event in traced.mutate { $0.append(String(describing: event)) } }
            }
            _ = try await api.searchTitle("dune")
            await api.shutdown()
        }
        #expect(seen.value == ["Bearer s3cret-profile-token"])
        #expect(!traced.value.isEmpty)
        #expect(traced.value.joined().contains("Authorization"), "the header is traced, masked")
        #expect(!traced.value.joined().contains("s3cret-profile-token"))
    }
}
