import BTSShell
import BooksTrackContract
import Foundation
import Testing

/// Issue 33, item 13: help and output say at the point of use what the embedded backend does —
/// `recommend` without --library gives the week's picks and ignores the library; `enrich` asks no
/// provider.
@Suite("Embedded backend: help and notes say what it does")
struct EmbeddedHonestyTests {
    static func flat(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }

    @Test func recommendSaysTheWeeklyPicksIgnoreTheLibrary() async throws {
        try await withShell { shell in
            #expect(await shell.run("recommend --limit 3 --output table") == 0, "\(shell.err)")
            let table = Self.flat(shell.out)
            #expect(
                table.contains(
                    "this week's picks for everyone, not from your library; 'recommend --library' recommends for it"
                ),
                "\(shell.out)"
            )
            // JSON keeps the data alone.
            let before = shell.out.count
            #expect(await shell.run("recommend --limit 3") == 0)
            #expect(!String(shell.out.dropFirst(before)).contains("not from your library"))
            #expect(await shell.run("help recommend --output table") == 0)
            let help = Self.flat(shell.out)
            #expect(help.contains("which do not look at your library"), "\(shell.out)")
            #expect(help.contains("well-rated books of the bundled catalog"), "\(shell.out)")
        }
    }

    @Test func enrichSaysTheEmbeddedBackendAsksNoProvider() async throws {
        try await withShell { shell in
            #expect(await shell.run("help enrich --output table") == 0)
            let help = Self.flat(shell.out)
            #expect(help.contains("contact no provider"), "\(shell.out)")
            #expect(await shell.run("enrich 9780439023481 --provider openlibrary") == 0, "\(shell.err)")
            #expect(await shell.lastResult()["provider"]?.stringValue == "local-catalog")
        }
    }
}
