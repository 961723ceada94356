import BooksTrackContract

extension JobWatchStateMachine {
    /// True while an SSE connection is being opened, is open, or is about to be reopened.
    var isOnStream: Bool {
        switch state {
        case .connecting, .streaming, .waitingToReconnect: true
        default: false
        }
    }

    /// The SSE connection is open (response 200 `text/event-stream`).
    package mutating func streamOpened() -> JobWatchStep {
        guard isOnStream else { return JobWatchStep(action: .none) }
        state = .streaming(deliveredNewEvents: false)
        previousIDOnConnection = nil
        return JobWatchStep(action: .none)
    }

    /// A parsed SSE item arrived; `payload` is the event's `data` decoded by the transport (nil for
    /// comments, retry changes, or undecodable data).
    package mutating func streamItem(_ item: SSEStreamItem, payload: WatchedJobEvent? = nil) -> JobWatchStep {
        switch item {
        case .event(let event): streamEvent(event, payload: payload)
        case .comment(let text): streamComment(text)
        case .retry(let milliseconds): streamRetry(milliseconds: milliseconds)
        }
    }

    /// A comment line (heartbeat, "connection established"): proof of life only.
    package mutating func streamComment(_ text: String) -> JobWatchStep {
        if state == .connecting || state == .waitingToReconnect { state = .streaming(deliveredNewEvents: false) }
        return JobWatchStep(action: .none)
    }

    /// The stream set its reconnection time (`retry:` in milliseconds).
    package mutating func streamRetry(milliseconds: Int) -> JobWatchStep {
        reconnectionTime = .milliseconds(Int64(clamping: max(0, milliseconds)))
        return JobWatchStep(action: .none)
    }

    /// A dispatched SSE event (`initialized|processing|progress|completed|failed|canceled`, `timeout`,
    /// `error`) with its decoded payload.
    package mutating func streamEvent(_ event: SSEEvent, payload: WatchedJobEvent?) -> JobWatchStep {
        guard isOnStream else { return JobWatchStep(action: .none) }
        if case .streaming = state {} else { state = .streaming(deliveredNewEvents: false) }

        // Deduplicate by id: a replayed event is dropped; an event inheriting the previous event's id
        // (it had no `id` field) is not a replay.
        let eventID = event.lastEventID.isEmpty ? nil : event.lastEventID
        if let eventID, eventID != previousIDOnConnection {
            previousIDOnConnection = eventID
            lastEventID = eventID
            if !seenEventIDs.insert(eventID).inserted { return JobWatchStep(action: .none) }
        }

        switch event.type {
        case "timeout":
            return streamTimedOut(payload: payload, eventID: eventID)
        case "error":
            if payload?.errorCode == "job_not_found" {
                // Production keeps some batch jobs in its legacy progress object, which the stream's job
                // store does not see (batch-enrichment.ts 2159ade vs sse-stream.ts): the WebSocket knows.
                if configuration.offersWebSocket {
                    consecutiveFailures = 0
                    return JobWatchStep(action: openWebSocket(after: .zero))
                }
                return JobWatchStep(action: finish(.notFound(message: payload?.errorMessage)))
            }
            return connectionEnded(
                failure: .transport("stream error: \(payload?.errorMessage ?? payload?.errorCode ?? "unknown")")
            )
        default:
            guard let status = JobState(wireName: event.type) ?? payload?.status else {
                return JobWatchStep(action: .none)  // unknown event type: ignored, like EventSource listeners
            }
            // A terminal event whose data does not decode is not taken as the job's end: the stream
            // is treated as broken, and the reconnect (or polling) learns the real state.
            if status.isTerminal, payload == nil, event.data.contains(where: { !$0.isWhitespace }) {
                return connectionEnded(failure: .transport("the server sent an unreadable '\(event.type)' event"))
            }
            state = .streaming(deliveredNewEvents: true)
            consecutiveFailures = 0
            return handleStatus(status, payload: payload, eventID: eventID, channel: .sse)
        }
    }

    /// `event: timeout` (no progress for a while; the server closes): switch to polling.
    private mutating func streamTimedOut(payload: WatchedJobEvent?, eventID: String?) -> JobWatchStep {
        if let status = payload?.status, status.isTerminal {
            return handleStatus(status, payload: payload, eventID: eventID, channel: .sse)
        }
        var progress: [JobProgressUpdate] = []
        if let status = payload?.status,
            let update = absorb(status: status, payload: payload, eventID: eventID, channel: .sse)
        {
            progress.append(update)
        }
        if configuration.offersPolling { return JobWatchStep(progress: progress, action: startPolling()) }
        return JobWatchStep(progress: progress, action: openStream(after: reconnectionTime))
    }

    /// The server closed the stream (EOF) before a terminal event. `parserLastEventID` is the parser's
    /// ``SSEParser/lastEventID`` (it also counts id-only blocks).
    package mutating func connectionClosed(parserLastEventID: String? = nil) -> JobWatchStep {
        guard isOnStream else { return JobWatchStep(action: .none) }
        noteParserID(parserLastEventID)
        return connectionEnded(failure: .transport("the server closed the stream"))
    }

    /// Opening or reading the stream failed (refused, HTTP error, broken, liveness timeout).
    package mutating func connectionFailed(
        _ failure: JobConnectionFailure,
        parserLastEventID: String? = nil
    ) -> JobWatchStep {
        guard isOnStream else { return JobWatchStep(action: .none) }
        noteParserID(parserLastEventID)
        if case .http(let status, let code, _) = failure {
            switch status {
            case 404:
                // No stream route for this job: another channel knows whether the job exists.
                if configuration.offersPolling || configuration.offersWebSocket {
                    return JobWatchStep(action: fallBack(from: .sse, reason: failure.summary))
                }
                return JobWatchStep(action: finish(.notFound(message: code)))
            case 401, 403:
                if configuration.offersPolling || configuration.offersWebSocket {
                    return JobWatchStep(action: fallBack(from: .sse, reason: failure.summary))
                }
                return JobWatchStep(action: finish(.unauthorized))
            case 400...499 where status != 408 && status != 429:
                // The stream cannot work against this server (e.g. INVALID_ACCEPT_HEADER): do not insist.
                return JobWatchStep(
                    action: fallBack(from: .sse, reason: "the event stream is unavailable: \(failure.summary)")
                )
            default:
                break
            }
        }
        return connectionEnded(failure: failure)
    }

    private mutating func noteParserID(_ id: String?) {
        if let id, !id.isEmpty {
            lastEventID = id
            seenEventIDs.insert(id)
        }
    }

    /// A connection ended without a terminal event: reconnect after the reconnection time, or fall back
    /// after too many failures in a row. A connection that delivered new events is not a failure.
    mutating func connectionEnded(failure: JobConnectionFailure) -> JobWatchStep {
        if case .streaming(deliveredNewEvents: true) = state {
            consecutiveFailures = 0
        } else {
            consecutiveFailures += 1
        }
        if consecutiveFailures >= configuration.maxConsecutiveFailures {
            let reason = "the event stream failed \(consecutiveFailures) times in a row (last: \(failure.summary))"
            return JobWatchStep(action: fallBack(from: .sse, reason: reason))
        }
        let delay = max(reconnectionTime, failure.retryAfter ?? .zero)
        return JobWatchStep(action: openStream(after: delay))
    }
}
