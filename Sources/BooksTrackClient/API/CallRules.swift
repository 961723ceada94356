import BooksTrackContract
import Foundation
import NIOHTTP1

/// The call pipeline's decisions, without I/O (``BooksTrackAPI/perform(_:)`` and its retries do
/// what these say): which identical reads share one request, which answers end the attempts, and
/// when a failure means the server cannot be reached.
enum CallRules {
    /// The key under which identical in-flight reads share one request: method, URL, `Accept` and
    /// every header, in order.
    static func coalescingKey(_ spec: RequestSpec, url: String) -> String {
        var key = spec.method.rawValue
        key += " "
        key += url
        key += " "
        key += spec.accept
        for header in spec.headers {
            key += ";"
            key += header.name
            key += "="
            key += header.value
        }
        return key
    }

    /// Whether a status answers the call: a 2xx, or a 304 answering a revalidation (`If-None-Match`;
    /// the caller serves its stored body). Anything else is a failure for the retry state machine.
    static func isAnswer(status: Int, to spec: RequestSpec) -> Bool {
        (200..<300).contains(status) || (status == 304 && spec.headers.contains { $0.name == "If-None-Match" })
    }

    /// Why `error` means the server cannot be reached ("connection refused", "timed out after 30 s"),
    /// nil for any other failure (an answer, even an error, is not offline).
    static func offlineReason(_ error: BooksTrackError, timeout: Duration) -> String? {
        guard error.httpStatus == nil else { return nil }
        switch error.kind {
        case .timeout:
            return "the request timed out after \(Int(timeout.timeInterval.rounded())) s"
        case .dns: return "the server's host name did not resolve"
        case .connection:
            return
                "the server could not be reached (\(error.retryableFailure == .transport(.cannotConnect) ? "connection refused" : "connection lost"))"
        default: return nil
        }
    }
}
