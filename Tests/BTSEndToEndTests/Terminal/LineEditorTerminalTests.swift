import BTSShell
import BTSTerminal
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// End-to-end line editing in the real `bts` binary, in a terminal (tmux): the parts
/// `InteractiveShellTests` does not cover (continuation lines, Ctrl-R, history on disk when bts is
/// killed, a coloured prompt, resizes, `~/.editrc`). Same setup as that suite: a per-test sandbox
/// (HOME, XDG directories), the embedded backend (`--local`), waits that poll the screen with
/// generous bounds. Every check is on the screen or in the history file; none is on a duration.
@Suite(
    "line editor in bts, in a terminal",
    .serialized,
    .enabled(if: BTSBinary.isAvailable && TmuxSession.isAvailable, Comment(rawValue: BTSBinary.skipReason))
)
struct LineEditorTerminalTests {
    static let prompt = InteractiveShellTests.prompt
    /// The continuation prompt: `...> ` right-aligned under `bts:embedded> `.
    static let continuation = "         ...> "
    /// The continuation prompt inside an unclosed double-quoted string.
    static let quoteContinuation = "           \"> "

    // MARK: helpers

    /// Starts `bts --local` like `TerminalSandbox.startShell`, but without the variables in
    /// `unsetting` (removed from the sandbox's environment and from the inherited one), and
    /// waits for the first prompt.
    private func startLocal(
        _ sandbox: TerminalSandbox,
        unsetting: [String] = [],
        width: Int = 120,
        height: Int = 40
    ) async throws -> TmuxSession {
        guard let binary = BTSBinary.path else { throw TmuxSession.Failure(message: BTSBinary.skipReason, screen: "") }
        var variables = sandbox.environment
        for name in unsetting { variables[name] = nil }
        let unset = unsetting.isEmpty ? "" : "unset " + unsetting.joined(separator: " ") + "; "
        let script =
            unset + "cd " + TerminalSandbox.quote(sandbox.work.path) + " && exec "
            + [binary, "--local"].map(TerminalSandbox.quote).joined(separator: " ")
        let session = try TmuxSession(
            command: ["/bin/sh", "-c", script],
            environment: variables,
            width: width,
            height: height
        )
        do {
            try await session.see(Self.prompt, timeout: InteractiveShellTests.startup)
        } catch {
            session.close()
            throw error
        }
        return session
    }

    /// Waits until the shell waits for input at an empty primary prompt.
    @discardableResult
    private func waitForIdlePrompt(_ session: TmuxSession, timeout: Duration = .seconds(60)) async throws -> String {
        try await session.waitForLastLine(Self.prompt, timeout: timeout)
    }

    static func lastLine(_ screen: String) -> String { TmuxSession.lastLine(screen) }

    /// Screen rows, trailing blanks removed.
    static func rows(_ screen: String) -> [String] {
        screen.components(separatedBy: "\n").map { row in
            var trimmed = row
            while trimmed.last == " " { trimmed.removeLast() }
            return trimmed
        }
    }

    /// How many rows of `screen` are exactly `row`.
    static func count(_ row: String, in screen: String) -> Int {
        rows(screen).filter { $0 == row }.count
    }

    /// Whether `block` appears as consecutive rows of `screen`.
    static func contains(rows block: [String], in screen: String) -> Bool {
        let all = rows(screen)
        guard !block.isEmpty, all.count >= block.count else { return false }
        for start in 0...(all.count - block.count) where Array(all[start..<(start + block.count)]) == block {
            return true
        }
        return false
    }

    /// Waits (bounded) until the program has ended and tmux knows how; nil if it still runs.
    private func waitForEnd(_ session: TmuxSession, timeout: Duration) async throws -> PaneState? {
        // Looked at once more after the deadline: a stalled test process may wake up past it.
        let deadline = ContinuousClock.now + timeout.scaled
        while true {
            let state = try session.paneState()
            if state.isDead {
                if state.status != nil || state.signal != nil { return state }
                // tmux 3.3a sometimes misses the SIGCHLD of a pane's program; a SIGCHLD sent to
                // the server makes it reap the program and record how it ended.
                if let server = try session.serverPID() { kill(server, SIGCHLD) }
            }
            if ContinuousClock.now >= deadline { return nil }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    // MARK: tests

    @Test("an unclosed quote or a trailing backslash asks for a continuation line")
    func continuationPrompt() async throws {
        let sandbox = try TerminalSandbox()
        let session = try await startLocal(sandbox)
        defer { session.close() }

        // Unclosed double quote: the next line gets the continuation prompt, and the quoted
        // text keeps its newline.
        try session.type("echo \"first")
        try session.press("Enter")
        try await session.waitForLastLine(Self.quoteContinuation)
        try session.type("second\"")
        try await session.waitForLastLine(Self.quoteContinuation + "second\"")
        try session.press("Enter")
        var screen = try await waitForIdlePrompt(session)
        #expect(Self.contains(rows: ["first", "second"], in: screen))

        // A trailing backslash joins the next line to the command.
        try session.type("echo joined \\")
        try session.press("Enter")
        try await session.waitForLastLine(Self.continuation)
        try session.type("together")
        try session.press("Enter")
        screen = try await waitForIdlePrompt(session)
        #expect(Self.count("joined together", in: screen) == 1)

        // Ctrl-C in a continuation line drops the whole input; nothing of it runs.
        try session.type("echo \"abandoned")
        try session.press("Enter")
        try await session.waitForLastLine(Self.quoteContinuation)
        try session.press("C-c")
        try await waitForIdlePrompt(session)
        try await session.run("echo after-abandon", expecting: "\nafter-abandon")
        screen = try await waitForIdlePrompt(session)
        #expect(Self.count("abandoned", in: screen) == 0)

        // The multi-line entry went to the history file as one entry (stored escaped).
        let history = try String(contentsOf: sandbox.historyFile, encoding: .utf8)
        #expect(history.contains("echo \"first\\nsecond\""))
    }

    @Test("Ctrl-R finds an earlier line in the history and Enter runs it")
    func reverseSearch() async throws {
        let sandbox = try TerminalSandbox()
        let session = try await startLocal(sandbox)
        defer { session.close() }
        try await session.run("echo needle-31", expecting: "\nneedle-31")
        try await session.run("echo other-1", expecting: "\nother-1")
        try await session.run("echo other-2", expecting: "\nother-2")
        try await waitForIdlePrompt(session)
        // Up would bring back "echo other-2"; the search goes past it to the earlier line.
        try session.press("C-r")
        try session.type("needle")
        // The found line is back in the editor (its first run is on the screen already).
        try await session.waitForScreen(description: "the found line in the editor") {
            Self.count(Self.prompt + "echo needle-31", in: $0) == 2
        }
        try session.press("Enter")
        let screen = try await session.waitForScreen(timeout: .seconds(30), description: "needle-31 printed twice") {
            Self.count("needle-31", in: $0) >= 2
        }
        #expect(Self.count("needle-31", in: screen) == 2)
        #expect(Self.count("other-2", in: screen) == 1)
    }

    @Test("history lines are on disk when bts is killed by a signal", arguments: ["TERM", "HUP"])
    func historyOnDiskWhenKilled(signalName: String) async throws {
        let number: Int32 = signalName == "TERM" ? SIGTERM : SIGHUP
        let sandbox = try TerminalSandbox()
        let session = try await startLocal(sandbox)
        defer { session.close() }
        try await session.run("echo kept-1", expecting: "\nkept-1")
        try await session.run("echo kept-2", expecting: "\nkept-2")
        try await waitForIdlePrompt(session)
        let pid = try session.programPID()
        #expect(kill(pid, number) == 0)
        // bts handles SIGTERM and SIGHUP ("end the session"): it should end, with 128+N or by the signal.
        // (60 s bounds a hang; under load ending the embedded server can take a while.)
        let ended = try await waitForEnd(session, timeout: .seconds(60))
        #expect(ended != nil, "bts still runs after SIG\(signalName)")
        if let end = ended { #expect(end.status == 128 + number || end.signal == number) }
        if ended == nil {
            // Whatever bts does on the signal, the lines must already be on disk: kill it without
            // any chance to clean up, then read the file.
            #expect(kill(pid, SIGKILL) == 0)
            let killed = try await waitForEnd(session, timeout: .seconds(10))
            #expect(killed?.signal == SIGKILL)
        }
        let history = try String(contentsOf: sandbox.historyFile, encoding: .utf8)
        #expect(history == "echo kept-1\necho kept-2\n")
    }

    @Test("a coloured prompt is measured without its escape sequences")
    func colouredPromptWidth() async throws {
        let sandbox = try TerminalSandbox()
        // Colour on: NO_COLOR unset (the sandbox sets it), stdout a terminal, no --no-color.
        let session = try await startLocal(sandbox, unsetting: ["NO_COLOR"])
        defer { session.close() }
        // The prompt really is coloured: its row carries SGR sequences.
        let styled = try session.styledScreen()
        let bare = Self.prompt.trimmingCharacters(in: .whitespaces)  // tmux drops the trailing blank
        let promptRow = styled.components(separatedBy: "\n").first { CompletionText.stripEscapes($0).hasPrefix(bare) }
        let row = try #require(promptRow)
        #expect(row.contains("\u{1B}["))
        let promptWidth = Self.prompt.count  // 14 columns; with its escapes the prompt is 31 characters
        try session.type("cho coloured")
        try await session.see(Self.prompt + "cho coloured")
        #expect(try session.cursorPosition().x == promptWidth + 12)
        // Home moves to just after the prompt, not to where the escapes would put it.
        try session.press("C-a")
        try await session.waitForScreen(description: "the cursor right after the prompt") { _ in
            ((try? session.cursorPosition().x) ?? -1) == promptWidth
        }
        try session.type("e")
        try await session.see(Self.prompt + "echo coloured")
        #expect(try session.cursorPosition().x == promptWidth + 1)
        try session.press("C-e")
        try session.type("!")
        try await session.see(Self.prompt + "echo coloured!")
        #expect(try session.cursorPosition().x == promptWidth + 14)
        try session.press("Enter")
        let screen = try await waitForIdlePrompt(session)
        #expect(Self.count("coloured!", in: screen) == 1)
    }

    @Test("after a resize, completion lists fit the new width")
    func completionAfterResize() async throws {
        let sandbox = try TerminalSandbox()
        let session = try await startLocal(sandbox, width: 120)
        defer { session.close() }
        // The candidates for "s", listed on the wide terminal.
        try session.type("s")
        try session.press("Tab")
        let wide = try await session.waitForScreen(description: "a completion list and the prompt again") {
            Self.count(Self.prompt + "s", in: $0) >= 2
        }
        let wideRows = Self.rows(wide)
        let first = try #require(wideRows.firstIndex(of: Self.prompt + "s"))
        let second = try #require(wideRows[(first + 1)...].firstIndex(of: Self.prompt + "s"))
        let candidates = wideRows[(first + 1)..<second].flatMap { $0.split(separator: " ").map(String.init) }
        #expect(candidates.count >= 3)
        let narrow = 30
        let expected = CompletionText.columns(candidates, width: narrow).map { row in
            var trimmed = row
            while trimmed.last == " " { trimmed.removeLast() }
            return trimmed
        }
        try #require(expected.count >= 2)  // the narrow layout differs from the wide one

        try session.resize(width: narrow, height: 40)
        // SIGWINCH reaches the editor asynchronously: TAB (which lists again) until the list
        // uses the new width, a bounded number of times.
        var screen = ""
        var fits = false
        for _ in 0..<40 where !fits {
            try session.press("Tab")
            try await Task.sleep(for: .milliseconds(250))
            screen = try session.screen()
            fits = Self.contains(rows: expected, in: screen)
        }
        #expect(fits, "expected the list as\n\(expected.joined(separator: "\n"))\n--- screen ---\n\(screen)")
        // Still editing the same line.
        try session.type("earch title dune --limit 1")
        try session.press("Enter")
        try await session.see("Dune", timeout: .seconds(60))
    }

    @Test("~/.editrc is honoured (vi mode) and bts's TAB binding survives it")
    func editrcViMode() async throws {
        let sandbox = try TerminalSandbox()
        let editrc = sandbox.root.appendingPathComponent("home/.editrc")
        try "bind -v\n".write(to: editrc, atomically: true, encoding: .utf8)
        // The sandbox points EDITRC elsewhere; without it libedit reads $HOME/.editrc.
        let session = try await startLocal(sandbox, unsetting: ["EDITRC"])
        defer { session.close() }
        try session.type("xsea")
        try session.press("Escape")
        try session.type("0x")  // vi command mode: to column 0, delete a character
        try await session.waitForLastLine(Self.prompt + "sea")
        try session.type("A")  // append at the end (insert mode)
        try session.press("Tab")
        try session.type("title dune --limit 1")  // proves the space TAB added after "search"
        try await session.waitForLastLine(Self.prompt + "search title dune --limit 1")
        try session.press("Enter")
        try await session.see("Dune", timeout: .seconds(60))
        try await waitForIdlePrompt(session)
        // Ctrl-C keeps bts's binding in vi mode too: the line is dropped, not run.
        try session.type("echo dropped-line")
        try session.press("C-c")
        try await waitForIdlePrompt(session)
        try await session.run("echo kept-line", expecting: "\nkept-line")
        let screen = try await waitForIdlePrompt(session)
        #expect(Self.count("dropped-line", in: screen) == 0)
    }
}

/// How a pane's program stands: running, or dead with an exit status or a signal.
private struct PaneState {
    var isDead: Bool
    var status: Int32?
    var signal: Int32?
}

extension TmuxSession {
    /// The visible screen with its colours and attributes as SGR sequences (`capture-pane -e`).
    fileprivate func styledScreen() throws -> String {
        try query(["capture-pane", "-e", "-p", "-t", target])
    }

    /// Whether the program has ended, and how (`pane_dead_status` is empty after a signal).
    fileprivate func paneState() throws -> PaneState {
        let text = try query([
            "display-message", "-p", "-t", target,
            "#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}",
        ])
        let fields = text.trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 3 else { throw Failure(message: "unexpected pane state '\(text)'", screen: "") }
        return PaneState(isDead: fields[0] == "1", status: Int32(fields[1]), signal: Int32(fields[2]))
    }

    /// The tmux server's process id.
    fileprivate func serverPID() throws -> Int32? {
        Int32(try query(["display-message", "-p", "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Runs a tmux client command against this session's server and returns its output. The
    /// output goes to a file, not a pipe, so no tmux server started meanwhile can hold it open.
    private func query(_ arguments: [String]) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try FileHandle(forWritingTo: file)
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux", "-u", "-L", socket] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        try output.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(message: "tmux \(arguments.first ?? "") failed (\(process.terminationStatus))", screen: "")
        }
        return try String(contentsOf: file, encoding: .utf8)
    }
}
