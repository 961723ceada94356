import BooksTrackContract
import Foundation
import NIOCore
import NIOFoundationCompat

extension BooksTrackAPI {
    /// Feeds the rate-limit ledger from a response's headers, under the class the server names in
    /// `X-RateLimit-Class` when it names one (the server's word wins), else the `predicted` one;
    /// returns what the headers said (the response's info reuses it).
    @discardableResult
    func observe(_ raw: RawResponse, predicted: RateLimitClass?) -> RateLimitObservation {
        let now = configuration.now()
        var bodyRetryAfter: Duration?
        if raw.status == 429 || raw.status == 503 {
            let data = Data(buffer: raw.body, byteTransferStrategy: .noCopy)
            if let ms = ResponseDecoding.decode(JSONValue.self, from: data, status: raw.status).errorInfo?.retryAfterMs
            {
                bodyRetryAfter = .milliseconds(Int64(ms))
            }
        }
        let observation = RateLimitObservation(
            status: raw.status,
            headers: raw.headers,
            bodyRetryAfter: bodyRetryAfter,
            now: now
        )
        guard let cls = observation.rateLimitClass ?? predicted else { return observation }
        // An unlimited route's silence says nothing about the class its header names.
        if predicted == nil, observation.reportsNoBudget { return observation }
        guard
            observation.limit != nil || observation.remaining != nil || observation.status == 429
                || observation.reportsNoBudget
        else { return observation }
        // A CIRCUIT_OPEN 429 (production) is an upstream outage, not our budget.
        if raw.status == 429, bodyRetryAfter != nil,
            ResponseDecoding.decode(JSONValue.self, from: Data(buffer: raw.body), status: 429).errorInfo?.code
                == .circuitOpen
        {
            return observation
        }
        ledger.record(observation, for: cls, now: now)
        return observation
    }
}
