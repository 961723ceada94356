import Foundation
import Testing

/// `every` at the prompt: it redraws the screen run after run until Ctrl-C, then the prompt
/// comes back and `$?` says it was interrupted.
extension InteractiveShellTests {
    @Test("every ticks in place until Ctrl-C, then the prompt comes back")
    func everyTicksUntilControlC() async throws {
        let sandbox = try TerminalSandbox()
        let session = try sandbox.startShell(["--local"])
        defer { session.close() }
        try await session.see(Self.prompt, timeout: Self.startup)
        try session.type("every 1s echo tick")
        try session.press("Enter")
        let first = try await session.waitForScreen(timeout: .seconds(30), description: "the first run") {
            Self.header(in: $0) != nil && $0.contains("\ntick")
        }
        let firstHeader = try #require(Self.header(in: first))
        // The screen is redrawn: another run's header (a later time) replaces the first, and the
        // screen holds one header, not one per run.
        let later = try await session.waitForScreen(timeout: .seconds(30), description: "a later run") {
            Self.header(in: $0).map { $0 != firstHeader } ?? false
        }
        #expect(later.components(separatedBy: "Every 1s: echo tick").count == 2, "\(later)")
        try session.press("C-c")
        try await session.waitForLastLine(Self.prompt, timeout: .seconds(20))
        try await session.run("echo status $?", expecting: "status 130")
        try await session.run("echo after", expecting: "\nafter")
    }

    /// The header line of `every 1s echo tick` on the screen, if any.
    static func header(in screen: String) -> String? {
        screen.split(separator: "\n").first { $0.hasPrefix("Every 1s: echo tick — ") }.map(String.init)
    }
}
