extension JobWatchStateMachine {
    /// A status poll answered (`GET /api/v2/imports/{id}`, `data` mapped into a payload).
    package mutating func pollSucceeded(_ payload: WatchedJobEvent) -> JobWatchStep {
        guard state == .polling else { return JobWatchStep(action: .none) }
        consecutivePollFailures = 0
        guard let status = payload.status else {
            return JobWatchStep(action: .poll(after: configuration.pollInterval))
        }
        return handleStatus(status, payload: payload, eventID: nil, channel: .polling)
    }

    /// A status poll failed.
    package mutating func pollFailed(_ failure: JobConnectionFailure) -> JobWatchStep {
        guard state == .polling else { return JobWatchStep(action: .none) }
        switch failure {
        case .http(404, let code, _):
            return JobWatchStep(action: finish(.notFound(message: code)))
        case .http(401, _, _), .http(403, _, _):
            return JobWatchStep(action: finish(.unauthorized))
        case .http(429, _, let retryAfter):
            // Rate limited: not a failure of the server, just wait as told.
            return JobWatchStep(action: .poll(after: max(configuration.pollInterval, retryAfter ?? .zero)))
        default:
            consecutivePollFailures += 1
            if consecutivePollFailures >= configuration.maxConsecutivePollFailures {
                return JobWatchStep(
                    action: finish(
                        .unreachable(
                            reason:
                                "status polling failed \(consecutivePollFailures) times in a row (last: \(failure.summary))"
                        )
                    )
                )
            }
            return JobWatchStep(action: .poll(after: max(configuration.pollInterval, failure.retryAfter ?? .zero)))
        }
    }
}
