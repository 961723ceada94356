import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// End-to-end editing in a real terminal (tmux). Needs a line-reading program given by
/// `BTS_LINE_EDITOR_DEMO` (the dev demo: prompt "demo N> ", prints "got: LINE", "[interrupted]",
/// "[eof]"; completes search/semantic/similar/status/café/cafétéria/connect/exit). Skipped when unset.
@Suite("LineEditor in a terminal",
       .enabled(if: ProcessInfo.processInfo.environment["BTS_LINE_EDITOR_DEMO"] != nil && TmuxSession.isAvailable))
struct LineEditorTerminalTests {
    private let binary = ProcessInfo.processInfo.environment["BTS_LINE_EDITOR_DEMO"] ?? "/nonexistent"

    /// A per-test HOME and XDG_STATE_HOME.
    private final class Sandbox {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("bts-term-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url.appendingPathComponent("home"),
                                                    withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        var environment: [String: String] {
            ["HOME": url.appendingPathComponent("home").path, "XDG_STATE_HOME": url.appendingPathComponent("state").path,
             "TERM": "screen"]
        }
        var historyFile: URL { url.appendingPathComponent("state/bts/history") }
    }

    private func start(_ sandbox: Sandbox) async throws -> TmuxSession {
        try await start(sandbox, width: 100)
    }

    private func start(_ sandbox: Sandbox, width: Int) async throws -> TmuxSession {
        let session = try TmuxSession(command: [binary], environment: sandbox.environment, width: width)
        try await session.waitForScreen(containing: "demo 1>")
        return session
    }

    @Test("TAB completes a sole candidate and lists several")
    func tabCompletion() async throws {
        let sandbox = try Sandbox()
        let session = try await start(sandbox)
        defer { session.close() }
        try session.type("sea")
        try session.press("Tab")
        try await session.waitForScreen(containing: "demo 1> search")
        try session.press("Enter")
        try await session.waitForScreen(containing: "got: search")
        try session.type("s")
        try session.press("Tab")
        let screen = try await session.waitForScreen(containing: "semantic")
        #expect(screen.contains("search  semantic  similar  status"))
        try await session.waitForScreen(containing: "demo 2> s")
        try session.type("im")
        try session.press("Tab")
        try session.press("Enter")
        try await session.waitForScreen(containing: "got: similar")
    }

    @Test("UTF-8: typing café then Left and Backspace edits by character")
    func utf8Editing() async throws {
        let sandbox = try Sandbox()
        let session = try await start(sandbox)
        defer { session.close() }
        try session.type("café")
        try session.press("Left", "BSpace")
        try await session.waitForScreen(containing: "demo 1> caé")
        try session.press("End")
        try session.type(" ☕ 日本")
        try session.press("Enter")
        try await session.waitForScreen(containing: "got: caé ☕ 日本")
        try session.type("caf")
        try session.press("Tab")
        try await session.waitForScreen(containing: "café  cafétéria")
        try await session.waitForScreen(containing: "demo 2> café")
    }

    @Test("Ctrl-C clears the line, the program keeps running")
    func controlC() async throws {
        let sandbox = try Sandbox()
        let session = try await start(sandbox)
        defer { session.close() }
        try session.type("hello world")
        try session.press("Left", "C-c")
        try await session.waitForScreen(containing: "demo 1> hello world^C")
        try await session.waitForScreen(containing: "[interrupted]")
        try await session.waitForScreen(containing: "demo 2>")
        try session.type("ok")
        try session.press("Enter")
        let screen = try await session.waitForScreen(containing: "got: ok")
        #expect(!screen.contains("got: hello"))
    }

    @Test("continuation prompt until the input is complete")
    func continuation() async throws {
        let sandbox = try Sandbox()
        let session = try await start(sandbox)
        defer { session.close() }
        try session.type("echo \"a")
        try session.press("Enter")
        try await session.waitForScreen(containing: "\n...")
        try session.type("b\"")
        try session.press("Enter")
        try await session.waitForScreen(containing: "got: echo \"a⏎b\"")
    }

    @Test("Ctrl-D on an empty line exits 0")
    func controlD() async throws {
        let sandbox = try Sandbox()
        let session = try await start(sandbox)
        defer { session.close() }
        try session.type("x")
        try session.press("C-d")  // not empty: deletes/lists, does not exit
        try session.press("BSpace", "C-d")
        #expect(try await session.waitForExit() == 0)
        #expect(try session.screen().contains("[eof]"))
    }

    @Test("history survives a restart: Up recalls, Ctrl-R finds")
    func historyAcrossRestart() async throws {
        let sandbox = try Sandbox()
        do {
            let session = try await start(sandbox)
            defer { session.close() }
            try session.type("search history-test")
            try session.press("Enter")
            try await session.waitForScreen(containing: "got: search history-test")
            try session.type("jobs")
            try session.press("Enter")
            try await session.waitForScreen(containing: "got: jobs")
            try session.type(" secret-space")
            try session.press("Enter")
            try await session.waitForScreen(containing: "got:  secret-space")
            try session.press("C-d")
            #expect(try await session.waitForExit() == 0)
        }
        let session = try await start(sandbox)
        defer { session.close() }
        try session.press("Up")
        try await session.waitForScreen(containing: "demo 1> jobs")
        try session.press("Up")
        try await session.waitForScreen(containing: "demo 1> search history-test")
        try session.press("Down", "Enter")
        try await session.waitForScreen(containing: "got: jobs")
        try session.press("C-r")
        try session.type("hist")
        try await session.waitForScreen(containing: "demo 2> search history-test")
        try session.press("Enter")
        try await session.waitForScreen(containing: "got: search history-test")
        let contents = try String(contentsOf: sandbox.historyFile, encoding: .utf8)
        #expect(!contents.contains("secret-space"))
    }

    @Test("lines are on disk when the shell is killed by SIGTERM")
    func historyWrittenBeforeSIGTERM() async throws {
        let sandbox = try Sandbox()
        let session = try await start(sandbox)
        defer { session.close() }
        try session.type("status job-1")
        try session.press("Enter")
        try await session.waitForScreen(containing: "got: status job-1")
        kill(try session.programPID(), SIGTERM)
        #expect(try await session.waitForExit() == 143)
        let contents = try String(contentsOf: sandbox.historyFile, encoding: .utf8)
        #expect(contents == "status job-1\n")
    }

    @Test("a coloured prompt is measured without its escape sequences")
    func promptWidth() async throws {
        let sandbox = try Sandbox()
        let session = try await start(sandbox)
        defer { session.close() }
        try session.type("ab")
        try await session.waitForScreen(containing: "demo 1> ab")
        // "demo 1> ab" is 10 columns; counting "\e[1;32m" and "\e[0m" would put the cursor at 21.
        #expect(try session.cursorPosition().x == 10)
        let firstRow = try session.screen().split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstRow.hasPrefix("demo 1> ab") && firstRow.hasSuffix("[5/min]"))
    }

    @Test("after a resize, completion lists fit the new width")
    func resizeRelayout() async throws {
        let sandbox = try Sandbox()
        let session = try await start(sandbox)
        defer { session.close() }
        try session.resize(width: 30, height: 30)
        try session.type("s")
        // SIGWINCH reaches the editor asynchronously: press TAB (it re-lists) until the list
        // uses the new width, for at most ~5 s.
        var screen = ""
        for _ in 0..<20 {
            try session.press("Tab")
            screen = try await session.waitForScreen(containing: "semantic")
            if screen.contains("semantic  status") { break }
            try await Task.sleep(for: .milliseconds(250))
        }
        #expect(screen.contains("search    similar"))
        #expect(screen.contains("semantic  status"))
    }

    @Test("~/.editrc is honoured (vi mode) and bts's TAB binding survives it")
    func editrcViMode() async throws {
        let sandbox = try Sandbox()
        try "bind -v\n".write(to: sandbox.url.appendingPathComponent("home/.editrc"), atomically: true, encoding: .utf8)
        let session = try await start(sandbox)
        defer { session.close() }
        try session.type("abc")
        try session.press("Escape")
        try session.type("0x")  // vi: to column 0, delete a character
        try await session.waitForScreen(containing: "demo 1> bc")
        try session.type("A")   // append at end (insert mode)
        try session.type(" se")
        try session.press("Tab")
        try await session.waitForScreen(containing: "search  semantic")
        try session.type("a")
        try session.press("Tab", "Enter")
        try await session.waitForScreen(containing: "got: bc search")
        try session.type("xyz")
        try session.press("C-c")
        try await session.waitForScreen(containing: "[interrupted]")
    }

    @Test("cancelRead() from another task ends a pending read without a key press")
    func cancelFromAnotherTask() async throws {
        let sandbox = try Sandbox()
        let session = try await start(sandbox)
        defer { session.close() }
        try session.type("cancel-soon")
        try session.press("Enter")
        try await session.waitForScreen(containing: "got: cancel-soon")
        // The demo calls cancelRead() 300 ms after "cancel-soon": no key is pressed here.
        try await session.waitForScreen(containing: "[interrupted]")
        try await session.waitForScreen(containing: "demo 3>")
        try session.type("next")
        try session.press("Enter")
        try await session.waitForScreen(containing: "got: next")
    }
}
