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
        refreshesInFlight[jobID, default: (0, [])].count += 1
        defer { refreshEnded(jobID) }
        let response = try await call(TokenRefreshResponse.self, spec)
        tokens.record(
            jobID,
            token: response.value.token,
            expiresIn: TimeInterval(max(1, response.value.expiresIn)),
            now: requestedAt
        )
        statistics.tokenRefreshes += 1
        return response
    }

    /// A refresh of `jobID`'s token ended (answered or not): its waiters go on once none is left.
    private func refreshEnded(_ jobID: String) {
        guard var entry = refreshesInFlight[jobID] else { return }
        entry.count -= 1
        guard entry.count <= 0 else {
            refreshesInFlight[jobID] = entry
            return
        }
        refreshesInFlight[jobID] = nil
        for waiter in entry.waiters { waiter.resume() }
    }

    /// Returns once no refresh of `jobID`'s token is in flight (at once when none is). A request
    /// refused with the token such a refresh replaced is then repeated with the new one.
    func refreshSettled(_ jobID: String) async {
        guard refreshesInFlight[jobID] != nil else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            refreshesInFlight[jobID]?.waiters.append(continuation)
        }
    }

    /// The freshest token this client holds for `jobID` (refreshed ones included), if still valid.
    package func jobToken(for jobID: String) -> String? {
        tokens.token(for: jobID, now: configuration.now())
    }

    /// The token to present for `jobID`: `given`, unless it is one a refresh replaced (or missing),
    /// then the client's current one.
    func presentableToken(for jobID: String, given: String?) -> String? {
        tokens.presentable(for: jobID, given: given, now: configuration.now())
    }

    /// Starts keeping `jobID`'s token alive: refreshed in its last 30 min for as long as the job runs.
    /// `requestedAt`: when the request that created the job was sent. The server's clock started
    /// no earlier, so expiry is reckoned from then (a slow answer must not push it past the server's).
    func trackJobToken(_ jobID: String, token: String, requestedAt: Date) {
        guard configuration.refreshesJobTokens else { return }
        tokens.record(jobID, token: token, now: requestedAt)
        scheduleTokenKeeper()
    }

    /// The job ended: its token is no longer refreshed.
    func jobEnded(_ jobID: String) {
        tokens.finish(jobID)
    }

    /// (Re)starts the one task that sleeps until the next refresh falls due and performs it.
    func scheduleTokenKeeper() {
        tokenKeeper?.cancel()
        guard !isShutdown, tokens.nextDue(now: configuration.now()) != nil else {
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
        guard let next = tokens.nextDue(now: now) else { return nil }
        return next <= now ? .zero : .seconds(next.timeIntervalSince(now))
    }

    /// Refreshes every token that is due; failures are remembered (retried later or given up).
    func refreshDueTokens() async {
        for (jobID, token) in tokens.due(now: configuration.now()) {
            do throws(BooksTrackError) {
                _ = try await refreshJobToken(jobID, oldToken: token)
            } catch {
                // A retry must still land inside the refresh window: at most a sixth of it away.
                let window = configuration.jobTokenRefreshWindow.timeInterval
                let delay = Self.refreshRetryDelay(after: error).map { min($0, max(1, window / 6)) }
                tokens.refreshFailed(jobID, retryAfter: delay, now: configuration.now())
            }
        }
    }

    /// When to try a failed refresh again: never after a hard 401/404 (expired, replaced, unknown job);
    /// otherwise after a minute (or what the server asked). Production answers 401 also for two soft
    /// refusals (websocket-connection.ts refreshAuthToken): "Refresh not allowed yet" (outside the
    /// last 30 min) and "Refresh in progress, please retry shortly": those are retried.
    static func refreshRetryDelay(after error: BooksTrackError) -> TimeInterval? {
        if isSoftRefreshRefusal(error) {
            if let told = error.retryAfter { return max(1, told.timeInterval) }
            let text = (error.apiError?.message ?? error.detail).lowercased()
            return text.contains("in progress") ? 5 : 30
        }
        if error.httpStatus == 401 || error.httpStatus == 404 || error.code == .unauthorized { return nil }
        if let told = error.retryAfter { return max(1, told.timeInterval) }
        return 60
    }

    /// A 401 that means "not now" rather than "never": production's "Refresh not allowed yet" and
    /// "Refresh in progress" refusals.
    static func isSoftRefreshRefusal(_ error: BooksTrackError) -> Bool {
        guard error.httpStatus == 401 || error.code == .unauthorized else { return false }
        let text = (error.apiError?.message ?? error.detail).lowercased()
        return text.contains("not allowed yet") || text.contains("in progress")
    }
}
