import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// End-to-end tests of the real `bts` binary in a terminal (tmux): completion, history, Ctrl-C,
/// Ctrl-D, UTF-8 editing. Each test has its own HOME and XDG directories and uses the embedded
/// backend (`--local`) or a `bts serve` it starts on a free port. Skipped when the binary or
/// tmux is missing. Waits poll the screen with generous bounds; nothing asserts a duration.
@Suite(
    "bts in a terminal",
    .serialized,
    .enabled(if: BTSBinary.isAvailable && TmuxSession.isAvailable, Comment(rawValue: BTSBinary.skipReason))
)
struct InteractiveShellTests {
    static let prompt = "bts:embedded> "
    /// Embedded startup may build the catalog cache on first use.
    static let startup: Duration = .seconds(120)

    /// Starts `bts --local` and waits for the first prompt.
    private func startLocal(_ sandbox: TerminalSandbox) async throws -> TmuxSession {
        let session = try sandbox.startShell(["--local"])
        try await session.see(Self.prompt, timeout: Self.startup)
        return session
    }

    /// Waits until the last non-empty screen line is `prompt` alone (the shell waits for input).
    @discardableResult
    private func waitForIdlePrompt(
        _ session: TmuxSession,
        _ prompt: String = InteractiveShellTests.prompt,
        timeout: Duration = .seconds(60)
    ) async throws -> String {
        try await session.waitForLastLine(prompt, timeout: timeout)
    }

    static func lastLine(_ screen: String) -> String { TmuxSession.lastLine(screen) }

    @Test("TAB completes a command and an option")
    func completesCommandAndOption() async throws {
        let sandbox = try TerminalSandbox()
        let session = try await startLocal(sandbox)
        defer { session.close() }
        try session.type("sea")
        try session.press("Tab")
        try await session.see(Self.prompt + "search")
        try session.type("title dune --li")  // proves the space TAB added after "search"
        try await session.see(Self.prompt + "search title dune --li")
        try session.press("Tab")
        try await session.see(Self.prompt + "search title dune --limit")
        try session.type("2")
        try await session.see(Self.prompt + "search title dune --limit 2")
        try session.press("Enter")
        // The search ran with the completed option, then the prompt came back.
        try await session.see("Dune", timeout: .seconds(60))
        try await waitForIdlePrompt(session)
    }

    @Test("TAB completes a job id after import, and titles seen earlier")
    func completesJobIDAndTitles() async throws {
        let sandbox = try TerminalSandbox()
        let csv = sandbox.work.appendingPathComponent("shelf.csv")
        try Data("Title,Author,ISBN13\nDune,Frank Herbert,9780441172719\nFoundation,Isaac Asimov,9780553293357\n".utf8)
            .write(to: csv)
        let session = try await startLocal(sandbox)
        defer { session.close() }
        // File completion: `import sh<TAB>` → `import shelf.csv `.
        try session.type("import sh")
        try session.press("Tab")
        try await session.see(Self.prompt + "import shelf.csv ")
        try session.press("Enter")
        try await session.waitForScreen(timeout: .seconds(60), description: "the import to start") {
            $0.lowercased().contains("job")
        }
        try await waitForIdlePrompt(session)
        // The job id, as the shell knows it.
        // The answer's line starts with JOB= (the echoed command line has it after `echo `, and
        // matching that read `${_.jobId}` as the id).
        try await session.run("echo JOB=${_.jobId}", expecting: "\nJOB=")
        let screen = try session.screen()
        let answer = screen.split(separator: "\n").last { $0.hasPrefix("JOB=") } ?? ""
        let jobID = answer.dropFirst("JOB=".count).prefix { !$0.isWhitespace }
        #expect(!jobID.isEmpty)
        // `watch <TAB>` lists `last` and the id; typing its first characters and TAB completes it.
        try session.type("watch ")
        try session.press("Tab")
        try await session.see(String(jobID))
        try session.type(String(jobID.prefix(3)))
        try session.press("Tab")
        try await session.see(Self.prompt + "watch \(jobID) ")
        try session.press("C-u")
        // Titles seen in an earlier result complete, quoted.
        try await session.run("search title foundation --limit 3", expecting: "Foundation")
        try session.type("search title \"foundation")
        try session.press("Tab")
        try await session.see(Self.prompt + "search title \"Foundation")
    }

    @Test("history survives a restart; a line with a secret is never saved")
    func historyAndSecrets() async throws {
        let sandbox = try TerminalSandbox()
        var session = try await startLocal(sandbox)
        try await session.run("echo remember-me-42", expecting: "\nremember-me-42")
        // Rejected as a usage error (one TARGET only), so no connection is attempted; the
        // accepted line still goes through the history filter.
        try await session.run("connect https://u:secret@127.0.0.1:9 extra", expecting: "error")
        try await waitForIdlePrompt(session)
        // Ending the session is checked by its own test; here only what reached the file counts
        // (lines are appended as they are accepted).
        session.close()

        let history = try String(contentsOf: sandbox.historyFile, encoding: .utf8)
        #expect(history.contains("echo remember-me-42"))
        #expect(!history.contains("secret"))

        session = try await startLocal(sandbox)
        defer { session.close() }
        try session.press("Up")
        try await session.see(Self.prompt + "echo remember-me-42")
        try session.press("Enter")
        try await session.waitForScreen(timeout: .seconds(30), description: "the recalled command to run") {
            $0.components(separatedBy: "remember-me-42").count >= 3
        }
    }

    @Test("Ctrl-D on an empty line exits with status 0; Ctrl-C at the prompt only clears the line")
    func controlDExits() async throws {
        let sandbox = try TerminalSandbox()
        let session = try await startLocal(sandbox)
        defer { session.close() }
        try session.type("search title this-is-discarded")
        try session.press("C-c")
        try await waitForIdlePrompt(session, timeout: .seconds(10))
        try await session.run("echo still-here", expecting: "\nstill-here")
        try session.press("C-d")
        let status = try await session.waitForExit(timeout: .seconds(20))
        #expect(status == 0)
    }

    @Test("a line typed before the first prompt appears is run, not lost or stuck")
    func typedAheadLineRuns() async throws {
        let sandbox = try TerminalSandbox()
        let session = try sandbox.startShell(["--local"])
        defer { session.close() }
        // Typed at once, while bts is still starting (the tty is in cooked mode, libedit not ready).
        try session.type("echo typed-ahead-\u{1F4DA}")
        try session.press("Enter")
        try await session.see("\ntyped-ahead-\u{1F4DA}", timeout: Self.startup)
        try await waitForIdlePrompt(session)
    }

    @Test("the budget at the right of the prompt counts down while the prompt waits")
    func rightPromptCountsDown() async throws {
        let sandbox = try TerminalSandbox()
        let server = try await ServeProcess(extra: ["--rate-limit", "search=3/60s"], sandbox: sandbox)
        defer { server.stop() }
        let session = try sandbox.startShell(["--api", "http://127.0.0.1:\(server.port)"])
        defer { session.close() }
        let prompt = "bts:127.0.0.1:\(server.port)>"
        try await session.see(prompt, timeout: Self.startup)
        try await session.run("search title dune --limit 1", expecting: "Dune")
        try await session.run("search title emma --limit 1", expecting: "Emma")
        func countdown(_ screen: String) -> Int? {
            TmuxSession.budgetCountdown(screen, prompt: prompt, budget: "search 1/3")
        }
        let first = try await session.waitForScreen(timeout: .seconds(10), description: "a budget countdown") {
            countdown($0) != nil
        }
        let start = try #require(countdown(first))
        // No key is pressed: the prompt redraws itself as the window runs out.
        try await session.waitForScreen(timeout: .seconds(10), description: "the countdown below \(start)s") { screen in
            (countdown(screen) ?? Int.max) < start
        }
    }

    @Test("UTF-8 is edited by character: type, Left, Backspace, insert")
    func utf8Editing() async throws {
        let sandbox = try TerminalSandbox()
        let session = try await startLocal(sandbox)
        defer { session.close() }
        try session.type("echo café Günter")
        for _ in 0..<7 { try session.press("Left") }  // before " Günter"
        try session.press("BSpace")  // deletes é
        try session.type("è")
        try session.press("Enter")
        try await session.see("\ncafè Günter")
        try await session.run("set who \"Günter\"; echo \"[$who]\"", expecting: "[Günter]")
    }

    @Test("Ctrl-C during a slow request returns to the prompt and the shell still works")
    func controlCCancelsSlowRequest() async throws {
        let sandbox = try TerminalSandbox()
        let server = try await ServeProcess(
            extra: ["--enable-fault-injection", "--latency", "/v1/search=5000", "--latency", "/v3/books/search=5000"],
            sandbox: sandbox
        )
        defer { server.stop() }
        let session = try sandbox.startShell(["--api", "http://127.0.0.1:\(server.port)"])
        defer { session.close() }
        let prompt = "bts:127.0.0.1:\(server.port)> "
        try await session.see(prompt, timeout: Self.startup)
        try await session.run("echo warm", expecting: "\nwarm")  // connects and reads capabilities
        try session.type("search title dune")
        try session.press("Enter")
        try await Task.sleep(for: .milliseconds(400))
        let pressed = ContinuousClock.now
        try session.press("C-c")
        try await waitForIdlePrompt(session, prompt, timeout: .seconds(4))
        let back = ContinuousClock.now - pressed
        print("Ctrl-C during a 5 s request: prompt back after \(back) (polled every 25 ms)")
        // A second Ctrl-C at the prompt is harmless.
        try session.press("C-c")
        try await session.run("echo after-cancel", expecting: "\nafter-cancel")
    }

    @Test("Ctrl-D after connecting to an unreachable server still exits with status 0")
    func controlDAfterFailedConnect() async throws {
        let sandbox = try TerminalSandbox()
        let session = try await startLocal(sandbox)
        defer { session.close() }
        // --force: connect now refuses an unreachable target (and keeps the current one) without it.
        try session.type("connect --force http://127.0.0.1:9")
        try session.press("Enter")
        try await session.waitForScreen(timeout: .seconds(60), description: "a prompt after connect") { screen in
            Self.lastLine(screen).hasPrefix("bts:127.0.0.1:9>")
        }
        try session.press("C-d")
        let status = try await session.waitForExit(timeout: .seconds(15))
        #expect(status == 0)
    }
}
