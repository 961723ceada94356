import BooksTrackContract

extension JobWatchStateMachine {
    var isOnWebSocket: Bool {
        if case .webSocket = state { return true }
        return false
    }

    /// The WebSocket connected (the transport then sends `{"type":"ready"}`).
    package mutating func webSocketOpened() -> JobWatchStep {
        guard isOnWebSocket else { return JobWatchStep(action: .none) }
        state = .webSocket(open: true, deliveredMessages: false)
        return JobWatchStep(action: .none)
    }

    /// A WebSocket message arrived.
    package mutating func webSocketMessage(_ message: JobSocketMessage) -> JobWatchStep {
        guard isOnWebSocket else { return JobWatchStep(action: .none) }
        switch message.kind {
        case .ping:
            return JobWatchStep(action: .sendPong)
        case .readyAck, .pong, .other:
            return JobWatchStep(action: .none)
        case .error:
            return JobWatchStep(
                action: finish(
                    .failed(
                        code: message.payload?.errorCode,
                        message: message.payload?.errorMessage,
                        retryable: message.payload?.retryable
                    )
                )
            )
        case .jobStarted, .jobProgress, .jobComplete:
            state = .webSocket(open: true, deliveredMessages: true)
            consecutiveFailures = 0
            let status: JobState =
                message.kind == .jobComplete
                ? .completed
                : message.payload?.status.flatMap { $0.isTerminal ? $0 : nil } ?? .processing
            return handleStatus(status, payload: message.payload, eventID: nil, channel: .webSocket)
        }
    }

    /// The WebSocket closed with `code` (nil when it could not connect or dropped without a close frame).
    /// 1000 done, 1001 going away (retry in 5 s), 1008 bad token, 1011 server error (backoff), 1013 try later (30 s).
    package mutating func webSocketClosed(code: Int?) -> JobWatchStep {
        guard isOnWebSocket else { return JobWatchStep(action: .none) }
        let delivered: Bool
        if case .webSocket(_, let deliveredMessages) = state {
            delivered = deliveredMessages
        } else {
            delivered = false
        }
        switch code {
        case 1000:
            // Closed as done, but no job_complete arrived: ask the status route, or give up.
            if configuration.offersPolling { return JobWatchStep(action: startPolling()) }
            return JobWatchStep(
                action: finish(.unreachable(reason: "the progress socket closed before the job finished"))
            )
        case 1008:
            return JobWatchStep(action: finish(.unauthorized))
        default:
            break
        }
        consecutiveFailures = delivered ? 0 : consecutiveFailures + 1
        if consecutiveFailures >= configuration.maxConsecutiveFailures {
            let reason =
                "the progress socket failed \(consecutiveFailures) times in a row (last close code: "
                + "\(code.map(String.init) ?? "none"))"
            return JobWatchStep(action: fallBack(from: .webSocket, reason: reason))
        }
        let delay: Duration
        switch code {
        case 1001: delay = .seconds(5)
        case 1013: delay = .seconds(30)
        default: delay = webSocketBackoff(failures: max(1, consecutiveFailures))
        }
        return JobWatchStep(action: openWebSocket(after: delay))
    }

    /// `base · 2^(failures-1)`, capped.
    private func webSocketBackoff(failures: Int) -> Duration {
        var delay = configuration.webSocketBackoffBase
        for _ in 1..<failures where delay < configuration.webSocketBackoffCap { delay *= 2 }
        return min(delay, configuration.webSocketBackoffCap)
    }
}
