import Foundation

/// A rate-limit budget class (CONTRACT.md §7). Plain strings underneath, so a server's own
/// class names can be used too.
public struct RateLimitClass: RawRepresentable, Hashable, Sendable, Comparable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The class name as shown to the user (`"semantic"`).
    public let rawValue: String

    /// Creates a class from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a class from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The class name.
    public var description: String { rawValue }
    /// Orders classes by name (stable output).
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// ISBN/title/author/advanced search and v2 text search (100 / min).
    public static let search: Self = "search"
    /// v2 semantic and hybrid search (5 / min).
    public static let semantic: Self = "semantic"
    /// Similar books (10 / min).
    public static let similar: Self = "similar"
    /// Single-book enrichment (5 / min).
    public static let enrich: Self = "enrich"
    /// Batch enrichment (10 / min).
    public static let batch: Self = "batch"
    /// CSV import (5 / min).
    public static let `import`: Self = "import"
    /// Job status, results, cancel (30 / min).
    public static let jobs: Self = "jobs"
    /// Everything (1000 / hour).
    public static let global: Self = "global"

    /// The documented limits of CONTRACT.md §7: requests per window.
    public static let documentedLimits: [RateLimitClass: (requests: Int, window: Duration)] = [
        .search: (100, .seconds(60)), .semantic: (5, .seconds(60)), .similar: (10, .seconds(60)),
        .enrich: (5, .seconds(60)), .batch: (10, .seconds(60)), .import: (5, .seconds(60)),
        .jobs: (30, .seconds(60)), .global: (1000, .seconds(3600)),
    ]
}
