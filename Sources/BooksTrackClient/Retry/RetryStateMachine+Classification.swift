extension RetryStateMachine {
    /// Whether a failure may be retried at all, and under which reason.
    enum Classification: Equatable {
        case never
        case retry(RetryReason)
    }

    /// Codes of docs/contract.md §2 that are never retried, whatever the status or flag says.
    static let nonRetryableCodes: Set<String> = [
        "MISSING_PARAMETER", "INVALID_REQUEST", "INVALID_ISBN", "INVALID_QUERY", "FILE_TOO_LARGE",
        "EMPTY_BATCH", "BATCH_TOO_LARGE", "UNAUTHORIZED", "NOT_FOUND", "FEATURE_NOT_AVAILABLE",
        "INVALID_ACCEPT_HEADER",
    ]

    /// Statuses that are never retried (docs/contract.md §2), whatever the body says.
    static let neverRetriedStatuses: Set<Int> = [400, 401, 403, 404]

    /// Classifies one failure (pure; the per-request rules are applied by `failed(with:now:)`).
    static func classify(_ failure: RetryableFailure) -> Classification {
        switch failure {
        case .transport(.timeout):
            return .retry(.timeout)
        case .transport(.cannotConnect), .transport(.connectionLost):
            return .retry(.network)
        case .http(let status, let code, let retryable, _):
            if neverRetriedStatuses.contains(status) { return .never }
            if let code, nonRetryableCodes.contains(code) { return .never }
            if retryable == false { return .never }
            switch code {
            case "RATE_LIMIT_EXCEEDED": return .retry(.rateLimited)
            case "CIRCUIT_OPEN": return .retry(.circuitOpen)
            case "INTERNAL_ERROR": return .retry(.internalError)
            default: break
            }
            switch status {
            case 429: return .retry(.rateLimited)
            case 408: return .retry(.timeout)
            case 500: return .retry(.internalError)
            case 501, 505: return retryable == true ? .retry(.serverError(status: status, code: code)) : .never
            case 500...599: return .retry(.serverError(status: status, code: code))
            default:
                // Other 4xx (405, 409, 413, 422, …) are the client's fault; anything else unexpected
                // is retried only when the server explicitly said so.
                if (400...499).contains(status) { return .never }
                return retryable == true ? .retry(.serverError(status: status, code: code)) : .never
            }
        }
    }
}
