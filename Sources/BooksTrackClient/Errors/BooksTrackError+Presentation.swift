import Foundation

/// How an error is shown: one plain sentence per kind; raw detail (library text, bodies) only in traces.
extension BooksTrackError {
    /// A failure that is never retried whatever the policy: the connect was refused (nothing listens),
    /// the request's own deadline passed (the deadline is the user's, not a per-attempt budget), the
    /// name did not resolve, TLS failed, or the URL or a redirect was unusable.
    package var endsCallAtOnce: Bool {
        switch kind {
        case .timeout, .dns, .tls, .invalidInput: return true
        case .connection: return !retryable || retryableFailure == .transport(.cannotConnect)
        case .other: return !retryable
        default: return false
        }
    }

    /// The detail worth a second line for the user: the server's own message for an API error
    /// (when it says more than the sentence), else nothing; transport text, decoder text and page
    /// bodies stay in `detail` for `--trace`.
    package var userDetail: String? {
        guard kind == .api, !detail.isEmpty, detail != message else { return nil }
        return detail.count > 300 ? String(detail.prefix(300)) + "…" : detail
    }
}

extension BooksTrackError {
    /// A final error never promises a retry: the contract's "… Retrying in 4 seconds…" wording
    /// (circuit open, network error) loses its retry clause; the retry notices say it while retrying.
    mutating func dropRetryPromise() {
        guard let range = message.range(of: " Retrying") else { return }
        message = String(message[..<range.lowerBound])
        if !message.hasSuffix(".") { message += "." }
    }
}
