import BooksTrackContract
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// How one call's outcome is read: the body decoded into an ``APIResponse`` (enveloped or bare, every
/// accepted shape) or turned into a ``BooksTrackError``, and the facts of its headers (timing, cache,
/// rate limits, deprecation) into ``ResponseInfo``. Pure: the clock and the once-per-route deprecation
/// warning are handed in by ``BooksTrackAPI``, which remembers what was said.
enum ResponseReading {
    /// Decodes a 2xx outcome into `APIResponse<T>` carrying `info`; unusable bodies become `BooksTrackError`.
    static func decode<T: Decodable & Sendable>(
        _ type: T.Type,
        _ outcome: CallOutcome,
        spec: RequestSpec,
        info: ResponseInfo
    ) throws(BooksTrackError) -> APIResponse<T> {
        let raw = outcome.raw
        let data = Data(buffer: raw.body, byteTransferStrategy: .noCopy)
        var info = info
        info.source = outcome.source
        switch ResponseDecoding.decode(type, from: data, status: raw.status) {
        case .success(let value, let metadata):
            info.metadata = metadata
            return APIResponse(value: value, info: info)
        case .failure(let apiInfo, _):
            var error = BooksTrackError.fromAPIError(
                apiInfo,
                headerRetryAfter: nil,
                requestID: info.requestID,
                url: raw.url,
                notFoundMessage: spec.notFoundMessage
            )
            error.attempts = outcome.attempts
            throw error
        case .notJSON(_, let snippet):
            throw BooksTrackError.proxyPage(
                status: raw.status,
                body: data,
                snippet: snippet,
                requestID: info.requestID,
                url: raw.url,
                retryAfter: nil,
                notFoundMessage: spec.notFoundMessage
            )
        case .undecodable(_, let failure, let snippet):
            throw BooksTrackError(
                code: .invalidResponse,
                kind: .decoding,
                message:
                    "The server's response did not have the expected shape (\(failure.codingPath.isEmpty ? "top level" : failure.codingPath)).",
                detail: "\(failure); body: \(SecretMasking.maskText(snippet))",
                httpStatus: raw.status,
                requestID: info.requestID,
                url: raw.url,
                attempts: outcome.attempts,
                decodingFailure: failure
            )
        }
    }

    /// Status, headers, timing, cache and rate-limit facts of an outcome. `now` is read only when the
    /// outcome brought no rate-limit observation of its own; `deprecationWarning` is what to say about
    /// the route this time (see ``deprecationText(_:path:)``).
    static func info(
        _ outcome: CallOutcome,
        spec: RequestSpec,
        now: () -> Date,
        deprecationWarning: String?
    ) -> ResponseInfo {
        let raw = outcome.raw
        let headers = raw.headers
        let serverTime = headers.first(name: "x-response-time").flatMap(milliseconds)
        let xCache = headers.first(name: "x-cache").map { $0.uppercased().hasPrefix("HIT") }
        let observation =
            outcome.rateLimit
            ?? RateLimitObservation(
                status: raw.status,
                headers: headers,
                now: now()
            )
        let hasRateHeaders = observation.limit != nil || observation.remaining != nil || observation.resetAt != nil
        return ResponseInfo(
            method: spec.method.rawValue,
            url: raw.url,
            status: raw.status,
            headers: raw.headerFields,
            duration: outcome.duration,
            lastAttemptDuration: outcome.cacheHit ? .zero : raw.duration,
            attempts: outcome.attempts,
            cacheHit: outcome.cacheHit,
            coalesced: outcome.coalesced,
            serverCacheHit: xCache,
            serverTimeMs: serverTime,
            rateLimitClass: observation.rateLimitClass ?? outcome.requestClass,
            rateLimit: hasRateHeaders ? observation : nil,
            requestID: headers.first(name: "x-request-id") ?? headers.first(name: "cf-ray"),
            deprecationWarning: deprecationWarning,
            bodyBytes: raw.body.readableBytes
        )
    }

    /// `X-Response-Time` as milliseconds: `12`, `12ms`, ` 3.5 MS ` (nil otherwise). Read by bytes:
    /// every response carries it, and a Character-level reading is a visible share of a lookup.
    static func milliseconds(_ text: String) -> Double? {
        var value = text.utf8[...].trimmingASCIIWhitespace()
        if value.count >= 2, let m = value.dropLast().last, let s = value.last, m | 0x20 == UInt8(ascii: "m"),
            s | 0x20 == UInt8(ascii: "s")
        {
            value = value.dropLast(2)
            while value.last == UInt8(ascii: " ") { value = value.dropLast() }
        }
        // Double(_:) stops at a NUL byte ("12\0x" reads as 12): printable ASCII only.
        guard !value.isEmpty, value.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        if value.count <= 15, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return Double(value.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
        }
        return Double(String(decoding: value, as: UTF8.self))
    }

    /// The legacy-route warning a response's `Deprecation` header asks for (with its `Sunset` and
    /// `Link`), nil without one.
    static func deprecationText(_ headers: HTTPHeaders, path: String) -> String? {
        guard let deprecation = headers.first(name: "deprecation") else { return nil }
        var text = "\(path) is deprecated (Deprecation: \(deprecation))"
        if let sunset = headers.first(name: "sunset") { text += "; it will be removed after \(sunset)" }
        if let link = headers.first(name: "link") { text += "; see \(link)" }
        return text + "."
    }

    /// A route-level 404 said in the words of what the route offers: "This server does not offer
    /// ISBN lookup (GET /v1/search/isbn answers 404 "Endpoint not found")." — never "Book not found".
    static func notOffered(_ error: BooksTrackError, spec: RequestSpec) -> BooksTrackError {
        var error = error
        let route = "\(spec.method.rawValue) \(spec.path)"
        let what = spec.offering ?? route
        error.message = "This server does not offer \(what) (\(route) answers 404 \"Endpoint not found\")."
        return error
    }
}
