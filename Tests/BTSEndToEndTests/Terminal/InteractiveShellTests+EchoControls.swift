import Foundation
import Testing

/// `echo` of text from outside on a real terminal (tmux): its controls are shown, not obeyed.
extension InteractiveShellTests {
    /// A line of a file with an OSC window title, a CSI that clears the screen, a C1 CSI and a
    /// right-to-left override: echoed on the terminal as visible symbols, so the screen keeps what
    /// was on it and the text reads in its order.
    @Test("echo of a file's line shows its escape sequences inert on the terminal")
    func echoShowsControlsInert() async throws {
        let sandbox = try TerminalSandbox()
        let line = "before\u{1B}]2;pwned\u{07}\u{1B}[2J\u{9B}31m\u{202E}after"
        try Data((line + "\n").utf8).write(to: sandbox.work.appendingPathComponent("evil.txt"))
        let session = try sandbox.startShell(["--local"])
        defer { session.close() }
        try await session.see(Self.prompt, timeout: Self.startup)
        try await session.run("echo kept", expecting: "\nkept")
        try await session.run("for line in lines evil.txt; echo $line; end", expecting: "after")
        try await session.waitForLastLine(Self.prompt)
        let screen = try session.screen(joined: true, escapes: false)
        #expect(screen.contains("\nkept\n"), "the screen was not cleared: \(screen)")
        #expect(screen.contains("\nbefore␛]2;pwned␇␛[2J\u{FFFD}31m\u{FFFD}after\n"), "\(screen)")
    }
}
