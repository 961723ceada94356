import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing
@testable import BooksTrackClient

/// Job tokens kept alive against the real server, with 2 h / 30 min shrunk to 16 s / 14 s (the client
/// refreshes 5 s into the window, so it has 9 s to do it even on a loaded machine).
@Suite struct TokenRefreshLiveTests {
    static func modules(_ dir: URL) -> [any ServerRouteModule] {
        LocalServer.defaultModules.filter { !($0 is JobRoutes) } + [
            JobRoutes(dataDirectory: dir) { config in
                config.itemsPerSecond = 2
                config.tokenLifetime = .seconds(16)
                config.tokenRefreshWindow = .seconds(14)
            }
        ]
    }

    static func shortTokens(_ url: URL) -> APIConfiguration {
        var configuration = APIConfiguration(baseURL: url)
        configuration.jobTokenLifetime = .seconds(16)
        configuration.jobTokenRefreshWindow = .seconds(14)
        return configuration
    }

    /// A long job outlives its first token: the client refreshes it in the window, and a cancel
    /// after the first token's expiry still works (the server rejects the old token by then).
    @Test func aLongJobsTokenIsRefreshedAndCancelStillWorksAfterTheFirstExpired() async throws {
        let dir = try LiveJobTests.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("books.csv")
        try LiveJobTests.csv(rows: 80).write(to: file, atomically: true, encoding: .utf8)
        try await LiveServer.with(modules: Self.modules(dir), api: Self.shortTokens) { _, api in
            let started = ContinuousClock.now
            let accepted = try await api.importCSV(fileAt: file)
            let jobID = accepted.value.jobId
            let first = accepted.value.authToken
            #expect(await api.jobToken(for: jobID) == first)
            while await api.statistics.tokenRefreshes == 0, ContinuousClock.now - started < .seconds(30) {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(await api.statistics.tokenRefreshes >= 1)
            // The first token expires 16 s after the job started; wait past that.
            let expiry = started + .seconds(17)
            if ContinuousClock.now < expiry { try await Task.sleep(until: expiry) }
            let current = await api.jobToken(for: jobID)
            #expect(current != nil)
            #expect(current != first)
            // The old token no longer works…
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
        let dir = try LiveJobTests.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("books.csv")
        try LiveJobTests.csv(rows: 80).write(to: file, atomically: true, encoding: .utf8)
        try await LiveServer.with(modules: Self.modules(dir), api: { url in
            var configuration = Self.shortTokens(url)
            configuration.refreshesJobTokens = false
            return configuration
        }) { _, api in
            let accepted = try await api.importCSV(fileAt: file)
            try await Task.sleep(for: .seconds(17))
            #expect(await api.statistics.tokenRefreshes == 0)
            await #expect(throws: BooksTrackError.self) {
                _ = try await api.cancelJob(accepted.value.jobId, token: accepted.value.authToken)
            }
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
