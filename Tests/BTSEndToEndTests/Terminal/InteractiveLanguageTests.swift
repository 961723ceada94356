import Foundation
import Testing

/// The language at the prompt, in a real terminal (tmux): a block typed over several
/// lines runs when its `end` arrives, Ctrl-C inside an open block drops it, the rc file runs at
/// start (not with `--norc`), and output taller than the terminal goes through `$PAGER`.
@Suite(
    "bts language in a terminal",
    .serialized,
    .enabled(if: BTSBinary.isAvailable && TmuxSession.isAvailable, Comment(rawValue: BTSBinary.skipReason))
)
struct InteractiveLanguageTests {
    static let prompt = "bts:embedded> "

    private func writeRC(_ sandbox: TerminalSandbox, _ text: String) throws {
        let directory = sandbox.root.appendingPathComponent("config/bts")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: directory.appendingPathComponent("rc.bts"))
    }

    @Test("a block over several lines, Ctrl-C inside one, and the rc file's alias and variable")
    func blocksAndRCFile() async throws {
        let sandbox = try TerminalSandbox()
        try writeRC(sandbox, "set greeting hello-from-rc\nalias hg search 9780439023481\n")
        let session = try sandbox.startShell(["--local"])
        defer { session.close() }
        try await session.see(Self.prompt, timeout: .seconds(120))
        try await session.run("echo $greeting", expecting: "hello-from-rc")
        // A loop typed line by line: continuation prompts until `end`, then it runs.
        try session.type("for x in a b")
        try session.press("Enter")
        try await session.see("...> ")
        try session.type("echo got-$x")
        try session.press("Enter")
        try session.type("end")
        try session.press("Enter")
        try await session.see("got-b", timeout: .seconds(30))
        #expect(try session.screen().contains("got-a"))
        try await session.waitForLastLine(Self.prompt)
        // Ctrl-C inside an open block drops it: its command never runs.
        try session.type("if 1 == 1")
        try session.press("Enter")
        try session.type("echo n\"\"ever-ran")
        try session.press("Enter")
        try session.press("C-c")
        try await session.waitForLastLine(Self.prompt)
        try session.type("end")
        try session.press("Enter")
        try await session.see("'end' without an open block")
        // The typed line shows `n""ever-ran`; the output line `never-ran` would only come from running it.
        #expect(!(try session.screen().split(separator: "\n").contains { $0 == "never-ran" }))
        // The rc file's alias.
        try await session.run("hg", expecting: "Suzanne Collins")
    }

    /// Blocks nested 3,600 deep in the rc file overflowed the stack at every interactive start (SIGSEGV).
    @Test("an rc file with blocks nested too deep is one error, then the prompt")
    func deeplyNestedRCFile() async throws {
        let sandbox = try TerminalSandbox()
        try writeRC(
            sandbox,
            String(repeating: "if 1 == 1\n", count: 3_600) + "echo deep\n" + String(repeating: "end\n", count: 3_600)
        )
        let session = try sandbox.startShell(["--local"])
        defer { session.close() }
        // The message follows the rc file's path, whose length (the temporary directory's) moves
        // where bts wraps the line: compared with the wrap undone.
        try await session.waitForScreen(timeout: .seconds(120), description: "the nesting error") { screen in
            screen.replacingOccurrences(of: #"\s*\n\s*"#, with: " ", options: .regularExpression)
                .contains("blocks are nested more than 100 deep")
        }
        try await session.see(Self.prompt, timeout: .seconds(60))
        try await session.run("echo still-here", expecting: "still-here")
    }

    @Test("--norc skips the rc file")
    func noRC() async throws {
        let sandbox = try TerminalSandbox()
        try writeRC(sandbox, "set greeting hello-from-rc\n")
        let session = try sandbox.startShell(["--local", "--norc"])
        defer { session.close() }
        try await session.see(Self.prompt, timeout: .seconds(120))
        try await session.run("echo greeting=${greeting:-unset}", expecting: "greeting=unset")
    }

    /// bts on a 24-row terminal with `script` as `$PAGER`, at its prompt (`sandbox` must outlive it).
    private func startWithPager(_ sandbox: TerminalSandbox, _ script: String) async throws -> TmuxSession {
        let pager = try sandbox.writeExecutable("pager.sh", script)
        let session = try sandbox.startShell(["--local"], width: 80, height: 24, environment: ["PAGER": pager])
        try await session.see(Self.prompt, timeout: .seconds(120))
        return session
    }

    @Test("output taller than the terminal goes through $PAGER; 'set pager off' prints it")
    func pager() async throws {
        let sandbox = try TerminalSandbox()
        let session = try await startWithPager(
            sandbox,
            "#!/bin/sh\necho \"[pager] $(wc -l) lines, LESSCHARSET=$LESSCHARSET\"\n"
        )
        defer { session.close() }
        // 40 rows + header, rule and summary: 43 lines on a 24-row terminal. The pager is told the
        // text is UTF-8 (less showed `<E2><80><94>` for a dash where LANG was unset).
        try await session.run("search the --limit 40", expecting: "[pager] 43 lines, LESSCHARSET=utf-8")
        // Short output is printed as it is.
        try await session.run("search 9780439023481", expecting: "Suzanne Collins")
        try session.type("set pager off")
        try session.press("Enter")
        try await session.waitForLastLine(Self.prompt)
        try await session.run("search the --limit 40", expecting: "(40 of 4652 results;")
    }

    /// A pager that fails lost the output with `$?` 0.
    @Test("a pager that exits non-zero is said, and the command failed ($? 1, as after any failed pipeline)")
    func failingPager() async throws {
        let sandbox = try TerminalSandbox()
        let session = try await startWithPager(sandbox, "#!/bin/sh\ncat > /dev/null\nexit 3\n")
        defer { session.close() }
        try await session.run("search the --limit 40", expecting: "exited with status 3")
        try await session.run("echo status=$?", expecting: "status=1")
    }

    @Test("Ctrl-X Ctrl-E edits the line in $EDITOR, then runs the edited text")
    func editLineInEditor() async throws {
        let sandbox = try TerminalSandbox()
        // The "editor" appends a line to the file it is given (which holds the typed line).
        let editor = try sandbox.writeExecutable(
            "editor.sh",
            "#!/bin/sh\nprintf '%s\\n' 'echo from-the-editor' >> \"$1\"\n"
        )
        let session = try sandbox.startShell(
            ["--local"],
            width: 80,
            height: 24,
            environment: ["EDITOR": editor, "VISUAL": ""]
        )
        defer { session.close() }
        try await session.see(Self.prompt, timeout: .seconds(120))
        try session.type("echo typed-line")
        try session.press("C-x", "C-e")
        try await session.waitForScreen(timeout: .seconds(30), description: "the edited text's output") { screen in
            screen.split(separator: "\n").contains { $0 == "from-the-editor" }
        }
        try await session.waitForLastLine(Self.prompt)
        let screen = try session.screen()
        #expect(screen.split(separator: "\n").contains { $0 == "typed-line" }, "the typed line ran too")
    }
}
