import Foundation

/// `limit` requests per `windowSeconds`.
package struct RateLimitRule: Sendable, Hashable, Codable, CustomStringConvertible {
    package var limit: Int
    package var windowSeconds: Int

    package init(limit: Int, windowSeconds: Int) {
        self.limit = max(0, limit)
        self.windowSeconds = max(1, windowSeconds)
    }

    /// `n` per minute.
    package static func perMinute(_ n: Int) -> RateLimitRule { .init(limit: n, windowSeconds: 60) }
    /// `n` per hour.
    package static func perHour(_ n: Int) -> RateLimitRule { .init(limit: n, windowSeconds: 3600) }

    /// The rule's requests-per-minute figure (rounded down, at least 0), for the capabilities limits.
    package var requestsPerMinute: Int { limit * 60 / windowSeconds }

    package var description: String {
        switch windowSeconds {
        case 1: return "\(limit)/s"
        case 60: return "\(limit)/min"
        case 3600: return "\(limit)/hour"
        case 86400: return "\(limit)/day"
        default: return "\(limit)/\(windowSeconds)s"
        }
    }

    /// Parses `10/min`, `5/m`, `1000/hour`, `3/s`, `20/30s`, `100/day`.
    package init?(parsing text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let limit = Int(parts[0]), limit >= 0 else { return nil }
        let unit = parts[1].lowercased()
        let window: Int
        switch unit {
        case "s", "sec", "second", "seconds": window = 1
        case "m", "min", "minute", "minutes": window = 60
        case "h", "hr", "hour", "hours": window = 3600
        case "d", "day", "days": window = 86400
        default:
            guard unit.hasSuffix("s"), let n = Int(unit.dropLast()), n > 0 else { return nil }
            window = n
        }
        self.init(limit: limit, windowSeconds: window)
    }
}
