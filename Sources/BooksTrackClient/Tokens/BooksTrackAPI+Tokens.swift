import BooksTrackContract
import Foundation
import NIOHTTP1

extension BooksTrackAPI {
    /// `POST /api/token/refresh {jobId, oldToken}` → `{jobId, token, expiresIn}`. The server accepts
    /// it only in the token's last 30 min; the old token stops working. The new token is kept
    /// (``jobToken(for:)``). Sent once: a lost answer cannot be repeated with the old token.
    package func refreshJobToken(
        _ jobID: String,
        oldToken: String
    ) async throws(BooksTrackError) -> APIResponse<TokenRefreshResponse> {
        var spec = RequestSpec(.POST, APIPath.tokenRefresh)
        spec.body = .json(try Self.json(TokenRefreshRequest(jobId: jobID, oldToken: oldToken)))
        spec.createsWork = true
        spec.notFoundMessage = "Job \(jobID) not found, or this server does not refresh tokens."
        // The new token's life is reckoned from when the request was sent, as a job's first token's
        // is (a slow answer must not push the client's estimate past the server's expiry).
        let requestedAt = configuration.now()
        tokens.refreshStarted(jobID)
        // Its waiters go on once no refresh of the job's token is left in flight.
        defer { for waiter in tokens.refreshEnded(jobID) { waiter.resume() } }
        let response = try await call(TokenRefreshResponse.self, spec)
        tokens.book.record(
            jobID,
            token: response.value.token,
            expiresIn: TimeInterval(max(1, response.value.expiresIn)),
            now: requestedAt
        )
        statistics.tokenRefreshes += 1
        return response
    }

    /// Returns once no refresh of `jobID`'s token is in flight (at once when none is). A request
    /// refused with the token such a refresh replaced is then repeated with the new one.
    func refreshSettled(_ jobID: String) async {
        guard tokens.isRefreshing(jobID) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            tokens.waitForRefresh(jobID, continuation)
        }
    }

    /// The freshest token this client holds for `jobID` (refreshed ones included), if still valid.
    package func jobToken(for jobID: String) -> String? {
        tokens.book.token(for: jobID, now: configuration.now())
    }

    /// The token to present for `jobID`: `given`, unless it is one a refresh replaced (or missing),
    /// then the client's current one.
    func presentableToken(for jobID: String, given: String?) -> String? {
        tokens.book.presentable(for: jobID, given: given, now: configuration.now())
    }

    /// Starts keeping `jobID`'s token alive: refreshed in its last 30 min for as long as the job runs.
    /// `requestedAt`: when the request that created the job was sent. The server's clock started
    /// no earlier, so expiry is reckoned from then (a slow answer must not push it past the server's).
    func trackJobToken(_ jobID: String, token: String, requestedAt: Date) {
        guard configuration.refreshesJobTokens else { return }
        tokens.book.record(jobID, token: token, now: requestedAt)
        scheduleTokenKeeper()
    }

    /// The job ended: its token is no longer refreshed.
    func jobEnded(_ jobID: String) {
        tokens.book.finish(jobID)
    }

    /// (Re)starts the one task that sleeps until the next refresh falls due and performs it.
    func scheduleTokenKeeper() {
        tokenKeeper?.cancel()
        guard !isShutdown, tokens.book.nextDue(now: configuration.now()) != nil else {
            tokenKeeper = nil
            return
        }
        tokenKeeper = Task { [weak self] in
            while !Task.isCancelled {
                guard let self, let wait = await self.untilNextRefresh() else { return }
                if wait > .zero {
                    do { try await Task.sleep(for: wait) } catch { return }
                }
                guard !Task.isCancelled else { return }
                // The keeper's own requests: not the last exchange of the caller's commands.
                await Self.$recordsExchanges.withValue(false) { await self.refreshDueTokens() }
            }
        }
    }

    /// How long until the next refresh (nil: none left).
    func untilNextRefresh() -> Duration? {
        guard !isShutdown else { return nil }
        let now = configuration.now()
        guard let next = tokens.book.nextDue(now: now) else { return nil }
        return next <= now ? .zero : .seconds(next.timeIntervalSince(now))
    }

    /// Refreshes every token that is due; failures are remembered (retried later or given up).
    func refreshDueTokens() async {
        for (jobID, token) in tokens.book.due(now: configuration.now()) {
            do throws(BooksTrackError) {
                _ = try await refreshJobToken(jobID, oldToken: token)
            } catch {
                tokens.refreshFailed(jobID, error: error, now: configuration.now())
            }
        }
    }
}
