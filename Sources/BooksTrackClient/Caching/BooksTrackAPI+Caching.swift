import BooksTrackContract
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

extension BooksTrackAPI {
    /// A call answered without a request (memory or disk): counted, traced, recorded as the last
    /// exchange (a hit, or offline; `started`: when the call began), no budget spent.
    func cacheHit(
        _ raw: RawResponse,
        spec: RequestSpec,
        source: ResponseSource,
        started: ContinuousClock.Instant
    ) -> CallOutcome {
        statistics.cacheHits += 1
        if case .offline = source {
            record(spec, raw, cache: .offline, duration: ContinuousClock.now - started)
        } else {
            record(spec, raw, cache: .hit, duration: ContinuousClock.now - started)
        }
        if let trace = configuration.trace {
            trace(
                TraceEvent(
                    phase: .response,
                    requestID: allocateRequestID(),
                    method: spec.method.rawValue,
                    url: raw.url,
                    status: raw.status,
                    cacheHit: true
                )
            )
        }
        return CallOutcome(
            raw: raw,
            attempts: 0,
            duration: .zero,
            cacheHit: true,
            source: source,
            requestClass: spec.rateLimitClass
        )
    }

    /// Records `raw` as the last exchange, unless the call is one the client makes on its own
    /// (``recordsExchanges`` off).
    func record(_ spec: RequestSpec, _ raw: RawResponse, cache: CacheOutcome, duration: Duration) {
        guard Self.recordsExchanges else { return }
        exchanges.record(
            HTTPExchange(
                method: spec.method.rawValue,
                url: raw.url,
                status: raw.status,
                duration: duration,
                cache: cache,
                responseHeaders: raw.headers
            )
        )
    }
}

extension ErrorCode {
    /// The client's own code: `answersOnlyFromCache` met a call it would have had to send.
    static let notCached: ErrorCode = "NOT_CACHED"
}

extension BooksTrackError {
    /// `answersOnlyFromCache` met a call it would have had to send.
    static func notCached(url: String) -> BooksTrackError {
        BooksTrackError(code: .notCached, kind: .other, message: "Not in the cache.", url: url)
    }
}
