/// A failed attempt, as the transport reports it to ``RetryStateMachine``.
///
/// The transport maps its errors into this: an HTTP error response (status, the envelope's
/// `error.code`, `error.retryable`, and the server-told delay from `Retry-After`,
/// `retryAfterMs` or the rate limiter's `details.retryAfter`), or a transport failure.
package enum RetryableFailure: Sendable, Equatable, Hashable {
    /// The server answered with an error status.
    case http(status: Int, code: String? = nil, retryable: Bool? = nil, retryAfter: Duration? = nil)
    /// No usable answer arrived.
    case transport(TransportFailure)

    /// Why no usable answer arrived.
    package enum TransportFailure: Sendable, Equatable, Hashable {
        /// The connection could not be made (refused, DNS, TLS): the request never reached the server.
        case cannotConnect
        /// The connection broke after the request may have been sent (reset, EOF, bad response).
        case connectionLost
        /// The request's deadline passed.
        case timeout
    }

    /// The HTTP status, when the server answered.
    package var status: Int? {
        if case .http(let status, _, _, _) = self { return status }
        return nil
    }

    /// The error code string of the envelope, when there was one.
    package var code: String? {
        if case .http(_, let code, _, _) = self { return code }
        return nil
    }

    /// The server-told delay, when there was one.
    package var retryAfter: Duration? {
        if case .http(_, _, _, let retryAfter) = self { return retryAfter }
        return nil
    }
}
