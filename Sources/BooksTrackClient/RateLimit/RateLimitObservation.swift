import BooksTrackContract
import Foundation

/// What one response said about rate limits: `X-RateLimit-*`, `Retry-After`, and a body delay.
package struct RateLimitObservation: Sendable, Equatable {
    /// The HTTP status (429 marks a rejection).
    package var status: Int
    /// `X-RateLimit-Limit`.
    package var limit: Int?
    /// `X-RateLimit-Remaining`.
    package var remaining: Int?
    /// `X-RateLimit-Reset`, resolved to an instant.
    package var resetAt: Date?
    /// The server-told wait: `Retry-After` (seconds or HTTP date), else the body's `retryAfter`/`retryAfterMs`.
    package var retryAfter: Duration?
    /// `X-RateLimit-Class`: the class the server booked the request under (a name outside the
    /// contract stays `.other`; a value that is not a short class name is ignored).
    package var rateLimitClass: RateLimitClass?

    /// Creates an observation from already-parsed values.
    /// A success that carried no rate-limit information at all: the server reports no budget here.
    package var reportsNoBudget: Bool {
        (200..<300).contains(status) && limit == nil && remaining == nil && resetAt == nil && retryAfter == nil
    }

    package init(
        status: Int,
        limit: Int? = nil,
        remaining: Int? = nil,
        resetAt: Date? = nil,
        retryAfter: Duration? = nil
    ) {
        self.status = status
        self.limit = limit
        self.remaining = remaining
        self.resetAt = resetAt
        self.retryAfter = retryAfter
    }

    /// Parses the headers of a response (names case-insensitive; the first occurrence counts).
    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - headers: the response headers (AsyncHTTPClient's `HTTPHeaders` is such a sequence).
    ///   - bodyRetryAfter: a delay from the body (`retryAfterMs`, rate limiter `details.retryAfter`),
    ///     used when there is no `Retry-After` header.
    ///   - now: the receive time, to resolve relative values.
    package init(
        status: Int,
        headers: some Sequence<(name: String, value: String)>,
        bodyRetryAfter: Duration? = nil,
        now: Date
    ) {
        var limitText: String?
        var remainingText: String?
        var resetText: String?
        var retryAfterText: String?
        var classText: String?
        for (name, value) in headers {
            // Only names of the five lengths are lowercased and compared.
            let length = name.utf8.count
            guard length == 11 || length == 17 || length == 21 else { continue }
            switch name.lowercased() {
            case "x-ratelimit-limit": limitText = limitText ?? value
            case "x-ratelimit-remaining": remainingText = remainingText ?? value
            case "x-ratelimit-reset": resetText = resetText ?? value
            case "retry-after": retryAfterText = retryAfterText ?? value
            case "x-ratelimit-class": classText = classText ?? value
            default: continue
            }
        }
        self.init(status: status)
        limit = limitText.flatMap(Self.parseCount)
        remaining = remainingText.flatMap(Self.parseCount)
        resetAt = resetText.flatMap { Self.parseReset($0, now: now) }
        retryAfter = retryAfterText.flatMap { Self.parseRetryAfter($0, now: now) } ?? bodyRetryAfter
        rateLimitClass = classText.flatMap(Self.parseClass)
    }

    /// A class name: 1–40 characters of `a-z A-Z 0-9 _ . -` (anything else is not shown or keyed on).
    static func parseClass(_ text: String) -> RateLimitClass? {
        let name = String(text.trimmingWhitespace())
        let allowed = name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }
        guard (1...40).contains(name.count), allowed else { return nil }
        return RateLimitClass(rawValue: name)
    }

    /// A non-negative integer count.
    static func parseCount(_ text: String) -> Int? {
        guard let value = Int(String(text.trimmingWhitespace())), value >= 0 else { return nil }
        return value
    }

    /// `X-RateLimit-Reset`: epoch milliseconds (≥ 10¹¹), epoch seconds (≥ 10⁷), else seconds from now.
    static func parseReset(_ text: String, now: Date) -> Date? {
        guard let value = Double(String(text.trimmingWhitespace())), value.isFinite, value >= 0 else {
            return nil
        }
        if value >= 1e11 { return Date(timeIntervalSince1970: value / 1000) }
        if value >= 1e7 { return Date(timeIntervalSince1970: value) }
        return now.addingTimeInterval(value)
    }

    /// `Retry-After`: delay seconds (decimals tolerated) or an HTTP date (a past date means no wait).
    static func parseRetryAfter(_ text: String, now: Date) -> Duration? {
        let trimmed = String(text.trimmingWhitespace())
        if let seconds = Double(trimmed), seconds.isFinite {
            return seconds <= 0 ? .zero : .milliseconds(Int64(min(seconds, 1e9) * 1000))
        }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        return Duration.between(now, date)
    }
}

extension Duration {
    /// The non-negative duration from `start` to `end` (zero when `end` is not later), in milliseconds.
    static func between(_ start: Date, _ end: Date) -> Duration {
        let seconds = end.timeIntervalSince(start)
        guard seconds > 0 else { return .zero }
        return .milliseconds(Int64((min(seconds, 1e9) * 1000).rounded(.up)))
    }

    /// The duration as a `TimeInterval`.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
