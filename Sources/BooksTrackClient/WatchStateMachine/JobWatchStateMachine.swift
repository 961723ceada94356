import BooksTrackContract

/// What the watch loop does next (the transport executes it).
///
/// Every action other than ``none`` and ``sendPong`` ends the current connection, if any.
package enum JobWatchAction: Sendable, Equatable {
    /// Nothing new: keep reading the current connection (or keep waiting).
    case none
    /// Open the SSE stream after `after`, sending `Last-Event-ID: lastEventID` when not nil.
    case openStream(lastEventID: String?, after: Duration)
    /// Fetch the status route after `after`.
    case poll(after: Duration)
    /// Open the WebSocket after `after` (then send `{"type":"ready"}`).
    case openWebSocket(after: Duration)
    /// Answer a WebSocket `ping` message with `{"type":"pong"}`; keep reading.
    case sendPong
    /// The job completed: fetch its results, then report ``JobWatchStateMachine/resultsFetched()``
    /// or ``JobWatchStateMachine/resultsFailed(_:)``.
    case fetchResults
    /// Stop watching.
    case finish(JobWatchOutcome)
}

/// The result of one input: progress to show (in order), then the next action.
package struct JobWatchStep: Sendable, Equatable {
    /// Progress updates for the user, deduplicated and monotonic.
    package var progress: [JobProgressUpdate]
    /// What to do next.
    package var action: JobWatchAction

    /// Creates a step.
    package init(progress: [JobProgressUpdate] = [], action: JobWatchAction) {
        self.progress = progress
        self.action = action
    }
}

/// The pure state machine behind `watch` of import and batch jobs (docs/contract.md §5, §6).
///
/// The transport drives it: call ``start()``, execute the returned action, and report what happened
/// (stream opened, each parsed SSE item, the connection's end, poll results, WebSocket messages and
/// close codes, results fetched, user detach). It decides reconnects with `Last-Event-ID` after the
/// stream's `retry` time, the fall back to polling every 2 s after 3 consecutive failed connections
/// (a connection that delivered new events resets the count) or on a `timeout` event, the WebSocket
/// channel for servers that only offer that, and it turns events into deduplicated progress that never
/// goes backwards (`progress: 100` becomes 1.0). It performs no I/O and reads no clock.
package struct JobWatchStateMachine: Sendable {
    /// Where the watch stands.
    package enum State: Sendable, Equatable {
        /// ``start()`` not called yet.
        case idle
        /// A stream connection is being opened.
        case connecting
        /// The stream is open; `deliveredNewEvents` tells whether this connection brought anything new.
        case streaming(deliveredNewEvents: Bool)
        /// Waiting out the reconnection delay before opening the stream again.
        case waitingToReconnect
        /// Polling the status route.
        case polling
        /// Using the WebSocket; `open` once it is connected.
        case webSocket(open: Bool, deliveredMessages: Bool)
        /// The job completed; its results are being fetched.
        case fetchingResults
        /// Done.
        case finished(JobWatchOutcome)
    }

    /// The job watched.
    package let jobID: String
    /// Channels and timings.
    package let configuration: JobWatchConfiguration
    /// The current state.
    package internal(set) var state: State = .idle
    /// The last SSE event id seen (sent as `Last-Event-ID` on reconnect).
    package internal(set) var lastEventID: String?
    /// The reconnection time: the stream's `retry` field, else the configured default.
    package internal(set) var reconnectionTime: Duration
    /// Failed connections in a row on the current channel.
    package internal(set) var consecutiveFailures = 0
    /// Failed polls in a row.
    package internal(set) var consecutivePollFailures = 0
    /// The last progress reported to the user.
    package internal(set) var lastReported: JobProgressUpdate?

    /// Ids of the events already processed.
    var seenEventIDs: Set<String> = []
    /// The id of the previous event on the current connection (an event without its own `id` field
    /// inherits it, which is not a duplicate).
    var previousIDOnConnection: String?

    /// Creates the state machine for one job.
    package init(jobID: String, configuration: JobWatchConfiguration = .sse) {
        self.jobID = jobID
        self.configuration = configuration
        self.reconnectionTime = configuration.defaultReconnectionTime
    }

    /// True once finished.
    package var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// Starts watching: opens the best channel the server offers.
    package mutating func start() -> JobWatchStep {
        guard state == .idle else { return JobWatchStep(action: .none) }
        if configuration.offersSSE { return JobWatchStep(action: openStream(after: .zero)) }
        if configuration.offersWebSocket { return JobWatchStep(action: openWebSocket(after: .zero)) }
        if configuration.offersPolling { return JobWatchStep(action: startPolling()) }
        return JobWatchStep(action: finish(.unreachable(reason: "the server offers no way to follow this job")))
    }

    /// The user stopped watching (the job goes on on the server).
    package mutating func userDetached() -> JobWatchStep {
        if isFinished { return JobWatchStep(action: .none) }
        return JobWatchStep(action: finish(.detached))
    }

    /// The results of a completed job were fetched.
    package mutating func resultsFetched() -> JobWatchStep {
        guard state == .fetchingResults else { return JobWatchStep(action: .none) }
        return JobWatchStep(action: finish(.completed))
    }

    /// Fetching the results of a completed job failed (after the request's own retries).
    package mutating func resultsFailed(_ failure: JobConnectionFailure) -> JobWatchStep {
        guard state == .fetchingResults else { return JobWatchStep(action: .none) }
        let message: String
        if case .http(404, _, _) = failure {
            message = "the job completed but its results have expired"
        } else {
            message = "the job completed but its results could not be fetched: \(failure.summary)"
        }
        return JobWatchStep(action: finish(.resultsUnavailable(message: message)))
    }

    // MARK: - Transitions shared by the channels

    mutating func openStream(after delay: Duration) -> JobWatchAction {
        state = delay > .zero ? .waitingToReconnect : .connecting
        previousIDOnConnection = nil
        return .openStream(lastEventID: lastEventID, after: delay)
    }

    mutating func openWebSocket(after delay: Duration) -> JobWatchAction {
        state = .webSocket(open: false, deliveredMessages: false)
        return .openWebSocket(after: delay)
    }

    mutating func startPolling() -> JobWatchAction {
        state = .polling
        consecutiveFailures = 0
        consecutivePollFailures = 0
        return .poll(after: .zero)
    }

    mutating func finish(_ outcome: JobWatchOutcome) -> JobWatchAction {
        state = .finished(outcome)
        return .finish(outcome)
    }

    /// The channel to use after the current one failed for good.
    mutating func fallBack(from channel: JobWatchChannel, reason: String) -> JobWatchAction {
        consecutiveFailures = 0
        if channel == .sse, configuration.offersWebSocket, configuration.webSocketBeforePolling {
            return openWebSocket(after: .zero)
        }
        if configuration.offersPolling, channel != .polling { return startPolling() }
        if channel == .sse, configuration.offersWebSocket { return openWebSocket(after: .zero) }
        return finish(.unreachable(reason: reason))
    }

    /// Handles a (possibly terminal) status report from any channel.
    mutating func handleStatus(
        _ status: JobState,
        payload: WatchedJobEvent?,
        eventID: String?,
        channel: JobWatchChannel
    ) -> JobWatchStep {
        let update = absorb(status: status, payload: payload, eventID: eventID, channel: channel)
        let progress = update.map { [$0] } ?? []
        switch status {
        case .completed:
            state = .fetchingResults
            return JobWatchStep(progress: progress, action: .fetchResults)
        case .failed:
            return JobWatchStep(
                progress: progress,
                action: finish(
                    .failed(
                        code: payload?.errorCode,
                        message: payload?.errorMessage,
                        retryable: payload?.retryable
                    )
                )
            )
        case .canceled:
            return JobWatchStep(progress: progress, action: finish(.canceled))
        case .initialized, .processing:
            return JobWatchStep(
                progress: progress,
                action: channel == .polling ? .poll(after: configuration.pollInterval) : .none
            )
        }
    }
}
