import BTSLanguage
import BTSTerminalText
import Foundation
import Testing

/// Issue 33, items 2 and 9, in a real terminal (tmux): tables follow a resize; the right prompt's
/// colour does not leak into the typed text, and its countdown ticks with colour on.
@Suite(
    "bts in a terminal: resize and prompt colour",
    .serialized,
    .enabled(if: BTSBinary.isAvailable && TmuxSession.isAvailable, Comment(rawValue: BTSBinary.skipReason))
)
struct InteractiveResizeAndColourTests {
    static let prompt = "bts:embedded> "
    static let startup: Duration = .seconds(120)

    /// The widest line of the table printed after `marker` (the echoed command), wrapped lines joined.
    static func widestLine(after marker: String, in screen: String) -> Int {
        guard let start = screen.range(of: marker, options: .backwards) else { return -1 }
        let lines = screen[start.upperBound...].split(separator: "\n").dropFirst().prefix { !$0.hasPrefix("bts:") }
        return lines.map { DisplayWidth.of(TmuxSession.trimmingTrailingBlanks(String($0))) }.max() ?? -1
    }

    @Test("after a resize the next table fits the new width")
    func tablesFollowAResize() async throws {
        let sandbox = try TerminalSandbox()
        let session = try sandbox.startShell(["--local"], width: 200, height: 50)
        defer { session.close() }
        try await session.see(Self.prompt, timeout: Self.startup)
        let command = "search title harry potter --limit 4"
        try await session.run(command, expecting: "results")
        try await session.waitForLastLine(Self.prompt)
        let wide = Self.widestLine(after: command, in: try session.screen(joined: true, escapes: false))
        #expect(wide > 100, "the table at 200 columns is wider than 100 (\(wide))")

        try session.resize(width: 80, height: 50)
        try await Task.sleep(for: .milliseconds(300))
        try session.press("C-l")  // a fresh screen: the table below is the only one
        try await session.waitForLastLine(Self.prompt)
        try await session.run("echo resized; " + command, expecting: "results")
        try await session.waitForLastLine(Self.prompt)
        let screen = try session.screen(joined: true, escapes: false)
        let narrow = Self.widestLine(after: "\nresized", in: screen)
        #expect(narrow > 0 && narrow <= 80, "the table after the resize fits 80 columns (\(narrow)):\n\(screen)")
    }

    /// The foreground colour (SGR 30–37, 39 or a reset) in effect at `marker` on `line`.
    static func foreground(at marker: String, in line: String) -> Int? {
        guard let end = line.range(of: marker)?.lowerBound else { return nil }
        var colour: Int?
        var rest = line[..<end]
        while let escape = rest.range(of: "\u{1B}[") {
            let body = rest[escape.upperBound...].prefix { !$0.isLetter }
            let final = rest[escape.upperBound...].dropFirst(body.count).first
            rest = rest[escape.upperBound...].dropFirst(body.count + 1)
            guard final == "m" else { continue }
            for code in body.split(separator: ";", omittingEmptySubsequences: false).map({ Int($0) ?? 0 }) {
                if code == 0 || code == 39 { colour = nil } else if (30...37).contains(code) { colour = code }
            }
        }
        return colour
    }

    @Test("typed text keeps the terminal's colour beside a yellow budget, and the countdown ticks")
    func rightPromptColourDoesNotLeak() async throws {
        let sandbox = try TerminalSandbox()
        let server = try await ServeProcess(extra: ["--rate-limit", "search=3/60s"], sandbox: sandbox)
        defer { server.stop() }
        // Colour on: NO_COLOR empty, a colour terminal.
        let session = try sandbox.startShell(
            ["--api", "http://127.0.0.1:\(server.port)"],
            environment: ["NO_COLOR": "", "TERM": "screen-256color"]
        )
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
        try session.type("zzqq")
        try await session.see("zzqq")
        let coloured = try session.screen(joined: false, escapes: true)
        let line = try #require(coloured.split(separator: "\n").map(String.init).last { $0.contains("zzqq") })
        #expect(line.contains("\u{1B}[33m"), "the budget is yellow: \(line.debugDescription)")
        #expect(
            Self.foreground(at: "zzqq", in: line) == nil,
            "typed text in the default colour: \(line.debugDescription)"
        )
        // No key is pressed: the countdown runs down with colour on, the typed text kept.
        try await session.waitForScreen(timeout: .seconds(10), description: "the countdown below \(start)s") { screen in
            (countdown(screen) ?? Int.max) < start && TmuxSession.lastLine(screen).contains("zzqq")
        }
    }

    @Test("JSON is coloured on a terminal only: keys, strings, numbers and literals")
    func jsonIsColouredOnATerminal() async throws {
        let sandbox = try TerminalSandbox()
        let session = try sandbox.startShell(
            ["--local"],
            width: 120,
            height: 60,
            environment: ["NO_COLOR": "", "TERM": "screen-256color"]
        )
        defer { session.close() }
        try await session.see(Self.prompt, timeout: Self.startup)
        try await session.run("set output json; search isbn 9780439023481", expecting: "totalCount")
        try await session.waitForLastLine(Self.prompt)
        let coloured = try session.screen(joined: true, escapes: true)
        // (tmux writes bold and blue as two sequences.)
        #expect(
            coloured.contains("\u{1B}[1m\u{1B}[34m\"isbn\""),
            "a key bold blue: \(coloured.suffix(600).debugDescription)"
        )
        #expect(
            coloured.contains("\u{1B}[32m\"9780439023481\""),
            "a string green: \(coloured.suffix(600).debugDescription)"
        )
        #expect(coloured.contains("\u{1B}[36m2008"), "a number cyan: \(coloured.suffix(600).debugDescription)")
        // Through a pipe, and with colour off, the same JSON is plain.
        try session.press("C-l")
        try await session.waitForLastLine(Self.prompt)
        try await session.run(
            "search isbn 9780439023481 | cat; set color off; echo plain; search isbn 9780439023481",
            expecting: "plain"
        )
        try await session.waitForLastLine(Self.prompt)
        let plain = try session.screen(joined: true, escapes: true)
        let afterCommand = plain.components(separatedBy: "| cat;").last ?? ""
        #expect(
            afterCommand.contains("\"isbn\":\"9780439023481\""),
            "compact on a pipe: \(afterCommand.debugDescription)"
        )
        #expect(
            !afterCommand.contains("\u{1B}[34m") && !afterCommand.contains("\u{1B}[32m"),
            "no colour in a pipe or with colour off: \(afterCommand.debugDescription)"
        )
    }
}
