import Foundation
import Testing

/// An unfinished line at the prompt says what is open: `'> ` inside a single-quoted string, `"> `
/// inside a double-quoted one, `...> ` inside a block; the text typed on continuation lines is kept.
@Suite(
    "continuation prompts in a terminal",
    .serialized,
    .enabled(if: BTSBinary.isAvailable && TmuxSession.isAvailable, Comment(rawValue: BTSBinary.skipReason))
)
struct ContinuationPromptTerminalTests {
    static let prompt = "bts:embedded> "

    /// Waits until the last line is the continuation prompt ending in `marker` (right-aligned under
    /// the prompt).
    private func seeContinuation(_ session: TmuxSession, _ marker: String) async throws {
        let expected = String(repeating: " ", count: Self.prompt.count - marker.count - 1) + marker
        _ = try await session.waitForLastLine(expected)
    }

    @Test("an open quote shows its quote, a block shows ...>")
    func continuationSaysWhatIsOpen() async throws {
        let sandbox = try TerminalSandbox()
        let session = try sandbox.startShell(["--local", "--norc"])
        defer { session.close() }
        try await session.see(Self.prompt, timeout: .seconds(120))
        try session.type("echo 'first")
        try session.press("Enter")
        try await seeContinuation(session, "'>")
        try session.type("second'")
        try session.press("Enter")
        try await session.see("second", timeout: .seconds(30))
        try await session.waitForLastLine(Self.prompt)
        try session.type("echo \"one")
        try session.press("Enter")
        try await seeContinuation(session, "\">")
        try session.type("two\"")
        try session.press("Enter")
        try await session.see("two", timeout: .seconds(30))
        try await session.waitForLastLine(Self.prompt)
        // A quote opened inside a block: the quote's prompt, then the block's once it is closed.
        try session.type("for x in a b")
        try session.press("Enter")
        try await seeContinuation(session, "...>")
        try session.type("echo 'got")
        try session.press("Enter")
        try await seeContinuation(session, "'>")
        try session.type("x-$x'")
        try session.press("Enter")
        try await seeContinuation(session, "...>")
        try session.type("end")
        try session.press("Enter")
        try await session.waitForLastLine(Self.prompt)
        // Single quotes keep `$x` and the line break: each turn prints `got` then `x-$x`.
        let screen = try session.screen()
        let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.filter { $0 == "x-$x" }.count == 2, "\(screen)")
    }
}
