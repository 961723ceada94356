import BTSLanguage
import BTSTerminalText
import Foundation
import Testing

/// Tables in a real terminal (tmux) at 80 columns: the title is cut last, and `set expanded on`
/// shows each row as a block of `FIELD  value` lines.
@Suite(
    "bts in a terminal: table layout",
    .serialized,
    .enabled(if: BTSBinary.isAvailable && TmuxSession.isAvailable, Comment(rawValue: BTSBinary.skipReason))
)
struct InteractiveTableLayoutTests {
    static let prompt = "bts:embedded> "
    static let startup: Duration = .seconds(120)

    @Test("at 80 columns `search hunger gmes` keeps short titles whole and cuts the authors' outlier first")
    func theTitleIsCutLastAt80Columns() async throws {
        let sandbox = try TerminalSandbox()
        let session = try sandbox.startShell(["--local"], width: 80, height: 50)
        defer { session.close() }
        try await session.see(Self.prompt, timeout: Self.startup)
        try await session.run("search hunger gmes", expecting: "results")
        try await session.waitForLastLine(Self.prompt)
        let screen = try session.screen(joined: true, escapes: false)
        let lines = screen.split(separator: "\n").map { TmuxSession.trimmingTrailingBlanks(String($0)) }
        for line in lines { #expect(DisplayWidth.of(line) <= 80, "\(screen)") }
        // The title whole beside whole author names; the row of fourteen authors cut, not its title's start.
        #expect(
            lines.contains { $0.contains("The Hunger Games (The Hunger Games, #1)") && $0.contains("Suzanne Collins") },
            "\(screen)"
        )
        #expect(
            lines.contains { $0.contains("The Girl Who Was on Fire: Your Favorite") && $0.contains("Leah Wilson") },
            "\(screen)"
        )

        try session.press("C-l")
        try await session.waitForLastLine(Self.prompt)
        try await session.run("set expanded on; search isbn 9780439023481", expecting: "(1 of 1 result)")
        try await session.waitForLastLine(Self.prompt)
        let blocks = try session.screen(joined: true, escapes: false)
        #expect(blocks.contains("TITLE    The Hunger Games (The Hunger Games, #1)"), "\(blocks)")
        #expect(blocks.contains("AUTHORS  Suzanne Collins"), "\(blocks)")
    }
}

/// `--columns` in a real terminal (tmux) at 100 columns.
@Suite(
    "bts in a terminal: chosen columns",
    .serialized,
    .enabled(if: BTSBinary.isAvailable && TmuxSession.isAvailable, Comment(rawValue: BTSBinary.skipReason))
)
struct InteractiveColumnsTests {
    @Test("at 100 columns `search hunger games --columns title,year` shows exactly those two columns")
    func chosenColumnsAt100Columns() async throws {
        let sandbox = try TerminalSandbox()
        let session = try sandbox.startShell(["--local"], width: 100, height: 50)
        defer { session.close() }
        try await session.see(InteractiveTableLayoutTests.prompt, timeout: InteractiveTableLayoutTests.startup)
        try await session.run("search hunger games --columns title,year", expecting: "results")
        try await session.waitForLastLine(InteractiveTableLayoutTests.prompt)
        let screen = try session.screen(joined: true, escapes: false)
        let lines = screen.split(separator: "\n").map { TmuxSession.trimmingTrailingBlanks(String($0)) }
        let header = try #require(lines.first { $0.hasPrefix("TITLE") }, "\(screen)")
        #expect(header.split(separator: " ", omittingEmptySubsequences: true) == ["TITLE", "YEAR"], "\(screen)")
        #expect(
            lines.contains { $0.hasPrefix("The Hunger Games (The Hunger Games, #1)") && $0.hasSuffix("2008") },
            "\(screen)"
        )
        // No other column: neither its header nor its cells (an ISBN, the authors beside a title).
        #expect(
            !screen.contains("ISBN") && !screen.contains("AUTHORS") && !screen.contains("9780439023481"),
            "\(screen)"
        )
        #expect(
            !lines.contains { $0.hasPrefix("The Hunger Games (The Hunger Games, #1)") && $0.contains("Collins") },
            "\(screen)"
        )
    }
}
