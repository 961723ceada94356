import Foundation

/// The steps terminal tests share: type a line and wait for its output, wait for text or for the
/// last screen line. Waits poll the screen with a bound; none asserts a duration.
extension TmuxSession {
    /// Types `line`, presses Enter and waits until the screen contains `expected`.
    @discardableResult
    package func run(
        _ line: String,
        expecting expected: String,
        timeout: Duration = .seconds(60)
    ) async throws -> String {
        try type(line)
        try press("Enter")
        return try await see(expected, timeout: timeout)
    }

    /// Waits until the screen contains `text`. tmux trims blanks at the end of screen lines, so
    /// trailing blanks of `text` are not required (tests prove an inserted space by typing on).
    @discardableResult
    package func see(_ text: String, timeout: Duration = .seconds(30)) async throws -> String {
        try await waitForScreen(containing: Self.trimmingTrailingBlanks(text), timeout: timeout)
    }

    /// Waits until the last non-blank screen line is exactly `line` (trailing blanks ignored).
    @discardableResult
    package func waitForLastLine(_ line: String, timeout: Duration = .seconds(60)) async throws -> String {
        let expected = Self.trimmingTrailingBlanks(line)
        return try await waitForScreen(timeout: timeout, description: "last line '\(expected)'") { screen in
            Self.lastLine(screen) == expected
        }
    }

    /// The last non-blank line of `screen`, trailing blanks removed (leading ones kept).
    package static func lastLine(_ screen: String) -> String {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        return trimmingTrailingBlanks(lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "")
    }

    /// The seconds of the right prompt's budget countdown (`BUDGET ↻Ns`) on the prompt line of
    /// `screen`, or nil when the last line is not the prompt or shows no such countdown.
    package static func budgetCountdown(_ screen: String, prompt: String, budget: String) -> Int? {
        let line = lastLine(screen)
        guard line.hasPrefix(prompt), let mark = line.range(of: budget + " ↻") else { return nil }
        return Int(line[mark.upperBound...].prefix { $0.isNumber })
    }

    package static func trimmingTrailingBlanks(_ text: String) -> String {
        var trimmed = text
        while trimmed.last == " " { trimmed.removeLast() }
        return trimmed
    }
}
