import Foundation
import Testing

/// psql habits and REPL texts in a real terminal.
extension InteractiveShellTests {
    /// One bad line in rc.bts skipped the whole file; with `set timing on` there, each later
    /// `alias`/`set` printed a timing line.
    @Test("rc.bts goes on after a bad line, naming it; set and alias print no timing line")
    func rcFileGoesOnAfterABadLine() async throws {
        let sandbox = try TerminalSandbox()
        let config = sandbox.root.appendingPathComponent("config/bts")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data(
            """
            set timing on
            search title dune --limt 5
            alias hg search title "hunger games"
            set greeting hello

            """.utf8
        ).write(to: config.appendingPathComponent("rc.bts"))
        let session = try sandbox.startShell(["--local"], width: 120)
        defer { session.close() }
        let screen = try await session.see(Self.prompt, timeout: Self.startup)
        #expect(screen.contains("rc.bts:2:19: error: unknown option '--limt'"), "\(screen)")
        let timingLines = screen.split(separator: "\n").filter { $0.hasPrefix("time ") }
        #expect(timingLines.isEmpty, "no timing line for the rc file's set and alias: \(screen)")
        try await session.run("echo $greeting", expecting: "\nhello")
        try await session.run("hg --limit 1", expecting: "The Hunger Games")
        // Timing is on for the session's real commands.
        try await session.see("\ntime ", timeout: .seconds(30))
    }

    @Test("psql's \\q quits with status 0, as Ctrl-D does")
    func backslashQQuits() async throws {
        let sandbox = try TerminalSandbox()
        let session = try sandbox.startShell(["--local"])
        defer { session.close() }
        try await session.see(Self.prompt, timeout: Self.startup)
        try await session.run("search isbn 123", expecting: "error:")  // a failing last command
        try session.type("\\q")
        try session.press("Enter")
        #expect(try await session.waitForExit(timeout: .seconds(30)) == 0)
    }

    @Test("an error at the prompt names no <stdin>:1:1; the caret stays")
    func promptErrorsHaveNoFilePosition() async throws {
        let sandbox = try TerminalSandbox()
        let session = try sandbox.startShell(["--local"], width: 120)
        defer { session.close() }
        try await session.see(Self.prompt, timeout: Self.startup)
        let screen = try await session.run("search title dune --limt 5", expecting: "^~~~~~")
        #expect(screen.contains("error: unknown option '--limt'"), "\(screen)")
        #expect(!screen.contains("<stdin>"), "\(screen)")
    }

    /// Ctrl-C during a rate-limit countdown printed "interrupted" onto the countdown's line.
    @Test("Ctrl-C in a rate-limit countdown: 'interrupted' on a line of its own")
    func interruptedCountdownClearsItsLine() async throws {
        let sandbox = try TerminalSandbox()
        let server = try await ServeProcess(extra: ["--rate-limit", "search=1/min"], sandbox: sandbox)
        defer { server.stop() }
        let session = try sandbox.startShell(["--api", "http://127.0.0.1:\(server.port)"], width: 120)
        defer { session.close() }
        let prompt = "bts:127.0.0.1:\(server.port)> "
        try await session.see(prompt, timeout: Self.startup)
        try await session.run("search title dune --limit 1", expecting: "(1 of")
        try session.type("search title emma --limit 1")
        try session.press("Enter")
        try await session.see("rate limited: waiting", timeout: .seconds(30))
        // Once seen in a loaded full run: the first Ctrl-C did not reach the countdown (it kept
        // counting). Pressed again after 5 s; what is tested is the line "interrupted" lands on.
        var screen = ""
        for _ in 0..<6 where !screen.contains("interrupted") {
            try session.press("C-c")
            screen = (try? await session.see("interrupted", timeout: .seconds(5))) ?? ""
        }
        let line = screen.split(separator: "\n").first { $0.contains("interrupted") }.map(String.init) ?? ""
        #expect(!line.contains("waiting"), "\(screen)")
        #expect(line.trimmingCharacters(in: .whitespaces).hasSuffix("interrupted"), "\(screen)")
    }
}
