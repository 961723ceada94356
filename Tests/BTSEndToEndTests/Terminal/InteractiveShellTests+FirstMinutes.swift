import Foundation
import Testing

/// The first minutes of a new user in a terminal: the welcome line, a title TAB
/// completed finding its book, tables that follow a resize, and a spinner for a slow request.
/// Waits are generous bounds on screen states, never asserted durations.
extension InteractiveShellTests {
    @Test("the session starts with one welcome line: version, backend, 'type help'")
    func welcomeLine() async throws {
        let sandbox = try TerminalSandbox()
        let session = try sandbox.startShell(["--local"], width: 80)
        defer { session.close() }
        let screen = try await session.see(Self.prompt, timeout: Self.startup)
        let lines = screen.split(separator: "\n").map { String($0).trimmingCharacters(in: .whitespaces) }
        let welcome = lines.first { $0.hasPrefix("bts ") } ?? ""
        #expect(welcome.hasPrefix("bts 0."), "\(screen)")
        #expect(welcome.contains("backend embedded"), "\(screen)")
        #expect(welcome.contains("type 'help'"), "\(screen)")
        // Whole on one row of the 80-column screen (a wrapped line would end elsewhere).
        #expect(welcome.hasSuffix("Ctrl-D quits"), "\(screen)")
        #expect(lines.filter { $0.hasPrefix("bts 0.") }.count == 1)
    }

    @Test("a title completed by TAB, series suffix included, finds its book")
    func completedTitleFindsItsBook() async throws {
        let sandbox = try TerminalSandbox()
        let session = try sandbox.startShell(["--local"], width: 120)
        defer { session.close() }
        try await session.see(Self.prompt, timeout: Self.startup)
        try await session.run("search author le guin --limit 5", expecting: "A Wizard of Earthsea")
        try await session.waitForLastLine(Self.prompt, timeout: .seconds(60))
        try session.type("search title \"A Wizard of E")
        try session.press("Tab")
        try await session.see(Self.prompt + "search title \"A Wizard of Earthsea (Earthsea Cycle, #1)\"")
        try session.type(" -o csv")  // (tmux would read a leading "-" as its own flag)
        try session.press("Enter")
        let screen = try await session.see(
            "9780553383041,\"A Wizard of Earthsea (Earthsea Cycle, #1)\",Ursula K. Le Guin",
            timeout: .seconds(60)
        )
        #expect(!screen.contains("No matches."))
    }

    @Test("tables follow a resize (SIGWINCH): 120 columns, then 80")
    func tablesFollowTheTerminalWidth() async throws {
        let sandbox = try TerminalSandbox()
        let session = try sandbox.startShell(["--local"], width: 120, height: 40)
        defer { session.close() }
        try await session.see(Self.prompt, timeout: Self.startup)
        try await session.run("search harry potter --limit 3", expecting: "(3 of")
        let wide = try session.screen()
        #expect(wide.contains("Harry Potter and the Sorcerer's Stone (Harry Potter, #1)"), "\(wide)")
        #expect(!wide.contains("PAGES"), "no column that is empty in every row")
        try session.press("C-l")
        try session.resize(width: 80, height: 40)
        try await Task.sleep(for: .milliseconds(300))
        try await session.run("search harry potter --limit 3", expecting: "(3 of")
        let narrow = try session.screen()
        let rows = narrow.split(separator: "\n").filter { $0.hasPrefix("978") }
        #expect(rows.count >= 3, "\(narrow)")
        for row in rows { #expect(row.count <= 80, "\(row)") }
        // Cut to fit, yet the three titles still read apart.
        #expect(rows.contains { $0.contains("Harry Potter and the Sorcerer's") }, "\(narrow)")
        #expect(rows.contains { $0.contains("Harry Potter and the Chamber of") }, "\(narrow)")
        #expect(rows.contains { $0.contains("…") }, "\(narrow)")
    }

    @Test("a request slower than 300 ms shows a spinner on the terminal, cleared when it answers")
    func spinnerForASlowRequest() async throws {
        let sandbox = try TerminalSandbox()
        let server = try await ServeProcess(
            extra: ["--enable-fault-injection", "--latency", "/v1/search=3000", "--latency", "/v3/books/search=3000"],
            sandbox: sandbox
        )
        defer { server.stop() }
        let session = try sandbox.startShell(["--api", "http://127.0.0.1:\(server.port)"], width: 80)
        defer { session.close() }
        let prompt = "bts:127.0.0.1:\(server.port)> "
        try await session.see(prompt, timeout: Self.startup)
        try await session.run("echo warm", expecting: "\nwarm")  // connects and reads capabilities
        try session.type("search title dune --limit 1")
        try session.press("Enter")
        try await session.see("search title…", timeout: .seconds(10))
        let answered = try await session.waitForScreen(timeout: .seconds(30), description: "the answer") {
            $0.contains("(1 of")
        }
        #expect(!answered.contains("search title…"), "the spinner is cleared: \(answered)")
    }
}
