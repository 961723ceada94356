import NIOHTTP1
import Synchronization

/// How the client's response cache took part in an exchange.
package enum CacheOutcome: String, Sendable, Hashable, CaseIterable {
    /// A fresh stored answer (in memory or on disk): nothing was sent.
    case hit
    /// The server answered; nothing stored was used.
    case miss
    /// A stale stored answer the server confirmed with a 304 (`If-None-Match`).
    case revalidated
    /// A stored answer, served because the server could not be reached.
    case offline
}

/// One request and the answer it got, as the caller saw it: the last attempt's answer (after
/// retries and redirects), or the cache's. A request that got no answer (refused, timed out) is
/// not an exchange.
package struct HTTPExchange: Sendable {
    package var method: String
    /// The masked URL (after redirects).
    package var url: String
    /// The answer's status; a revalidated or offline answer has the stored answer's status.
    package var status: Int
    /// From sending the last attempt to the end of its body; for an answer from the cache, the time
    /// it took to find it (offline: the attempt that failed included).
    package var duration: Duration
    package var cache: CacheOutcome
    /// The response's headers (never the request's), secrets masked (`SecretMasking.maskHeaders`).
    /// Masked when read: most exchanges are never looked at.
    package var headers: [HeaderField] {
        SecretMasking.maskHeaders(responseHeaders.map { HeaderField(name: $0.name, value: $0.value) })
    }
    let responseHeaders: HTTPHeaders

    package init(
        method: String,
        url: String,
        status: Int,
        duration: Duration,
        cache: CacheOutcome,
        headers: [HeaderField]
    ) {
        var fields = HTTPHeaders()
        for field in headers { fields.add(name: field.name, value: field.value) }
        self.init(method: method, url: url, status: status, duration: duration, cache: cache, responseHeaders: fields)
    }

    init(
        method: String,
        url: String,
        status: Int,
        duration: Duration,
        cache: CacheOutcome,
        responseHeaders: HTTPHeaders
    ) {
        self.method = method
        self.url = url
        self.status = status
        self.duration = duration
        self.cache = cache
        self.responseHeaders = responseHeaders
    }

    /// A revalidated answer's headers: the stored ones, each replaced by the 304's of the same name
    /// (RFC 9111 §4.3.4), but for the 304's `Content-Length` (of its empty body).
    static func revalidated(stored: HTTPHeaders, notModified: HTTPHeaders) -> HTTPHeaders {
        var merged = stored
        let updates = notModified.filter { $0.name.lowercased() != "content-length" }
        for (name, _) in updates { merged.remove(name: name) }
        for (name, value) in updates { merged.add(name: name, value: value) }
        return merged
    }
}

/// The last exchange of a client, readable from any thread without waiting for the actor.
final class ExchangeLog: Sendable {
    private let state = Mutex<HTTPExchange?>(nil)

    func record(_ exchange: HTTPExchange) {
        state.withLock { $0 = exchange }
    }

    var last: HTTPExchange? { state.withLock { $0 } }

    /// The last exchange, forgotten here: the next `take` gives nil until another is recorded.
    func take() -> HTTPExchange? {
        state.withLock { state in
            defer { state = nil }
            return state
        }
    }
}
