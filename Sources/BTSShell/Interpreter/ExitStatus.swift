/// The exit statuses of bts (SHELL.md).
public enum ExitStatus: Int32, Sendable, Hashable, CaseIterable {
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
