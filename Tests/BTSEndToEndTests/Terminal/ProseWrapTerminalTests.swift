import BTSTerminalText
import Foundation
import Testing

/// Prose in a real terminal (tmux) at 60 columns: a summary longer than the width is broken
/// between words by bts, not mid-word by the terminal.
@Suite(
    "bts in a terminal: prose wrapped at words",
    .serialized,
    .enabled(if: BTSBinary.isAvailable && TmuxSession.isAvailable, Comment(rawValue: BTSBinary.skipReason))
)
struct ProseWrapTerminalTests {
    static let prompt = "bts:embedded> "
    static let startup: Duration = .seconds(120)

    @Test("at 60 columns `library import`'s summary breaks between words")
    func theImportSummaryBreaksBetweenWords() async throws {
        let sandbox = try TerminalSandbox()
        try Data(
            """
            Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf,Date Added
            1,The Hunger Games,Suzanne Collins,,9780439023481,5,read,2020/01/02
            2,The Hobbit,J.R.R. Tolkien,,9780618260300,4,read,2020/01/03
            3,Dune,Frank Herbert,,9780441172719,0,to-read,2020/01/04

            """.utf8
        ).write(to: sandbox.work.appendingPathComponent("books.csv"))
        let session = try sandbox.startShell(["--local", "--norc"], width: 60, height: 30)
        defer { session.close() }
        try await session.see(Self.prompt, timeout: Self.startup)
        try await session.run("library import books.csv", expecting: "already there.")
        try await session.waitForLastLine(Self.prompt)
        // The rows as the terminal shows them (not joined back).
        let screen = try session.screen(joined: false, escapes: false)
        let lines = screen.split(separator: "\n").map { TmuxSession.trimmingTrailingBlanks(String($0)) }
        guard let first = lines.firstIndex(where: { $0.hasPrefix("Goodreads export, 3 books: library") }) else {
            Issue.record("no summary on the screen:\n\(screen)")
            return
        }
        let summary = "Goodreads export, 3 books: library 3 created, 0 updated, 0 already there."
        let shown = lines[first...].prefix { !$0.isEmpty && !$0.hasPrefix("bts:embedded>") }
        #expect(shown.count >= 2, "the summary is wider than 60 columns:\n\(screen)")
        // Every word whole on one row, in order: no row ends inside a word.
        #expect(shown.flatMap { $0.split(separator: " ") } == summary.split(separator: " "), "\(screen)")
        for line in shown { #expect(DisplayWidth.of(line) <= 60, "\(screen)") }
    }
}
