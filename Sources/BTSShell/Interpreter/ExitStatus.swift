import BooksTrackClient

/// The exit statuses of bts (docs/usage.md).
package enum ExitStatus: Int32, Sendable, Hashable, CaseIterable {
    /// Everything worked.
    case ok = 0
    /// A command failed (API error, not found, feature off).
    case failure = 1
    /// Usage or syntax error.
    case usage = 2
    /// Network or server unreachable.
    case network = 3
    /// An `expect` failed.
    case expectationFailed = 4
    /// Rate limited and not allowed to wait.
    case rateLimited = 5
    /// Interrupted (Ctrl-C).
    case interrupted = 130
}

extension ExitStatus {
    /// What the status means, as `bts --help` lists it.
    package var meaning: String {
        switch self {
        case .ok: return "ok"
        case .failure: return "a command failed"
        case .usage: return "usage or syntax error"
        case .network: return "network or server unreachable"
        case .expectationFailed: return "an expect failed"
        case .rateLimited: return "rate limited and not allowed to wait"
        case .interrupted: return "interrupted"
        }
    }

    /// `0 ok, 1 a command failed, …, 130 interrupted`: every status with its meaning.
    package static var summary: String { allCases.map { "\($0.rawValue) \($0.meaning)" }.joined(separator: ", ") }

    /// The status of an API failure: the one place a client error category becomes an exit status.
    package init(_ category: BooksTrackError.Category) {
        switch category {
        case .usage: self = .usage
        case .api, .notFound, .unavailable: self = .failure
        case .network: self = .network
        case .rateLimited: self = .rateLimited
        case .cancelled: self = .interrupted
        }
    }
}
