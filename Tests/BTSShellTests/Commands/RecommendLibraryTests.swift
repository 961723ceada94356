import BTSShell
import BooksTrackContract
import Foundation
import Testing

/// `recommend --library`: computed in the shell from the library and the catalog's shelves.
@Suite struct RecommendLibraryTests {
    static let hobbit = "9780618260300"
    static let twilight = "9780316015844"
    static let potter = "9780439554930"

    @Test func recommendsForTheLibraryWithReasons() async throws {
        try await withShell { shell in
            #expect(await shell.run("recommend --library") == 1)
            #expect(shell.err.contains("none of your library's books"), "\(shell.err)")

            #expect(
                await shell.run(
                    """
                    search isbn \(Self.hobbit)
                    save
                    library set \(Self.hobbit) --shelf read --rating 5
                    recommend --library --limit 5
                    """
                ) == 0,
                "\(shell.err)"
            )
            let result = await shell.lastResult()
            #expect(result["strategy"]?.stringValue == "library_shelves")
            let rows = result["results"]?.arrayValue ?? []
            #expect(rows.count == 5)
            #expect(!rows.contains { $0["isbn"]?.stringValue == Self.hobbit })
            for row in rows {
                let reason = row["reason"]?.stringValue ?? ""
                #expect(reason.hasPrefix("shelved ") && reason.hasSuffix("like The Hobbit you rated 5"), "\(reason)")
            }
            #expect(rows.contains { ($0["authors"]?.arrayValue ?? []).contains(.string("J.R.R. Tolkien")) })
        }
    }

    @Test func lowRatingsPushAway() async throws {
        try await withShell { shell in
            #expect(
                await shell.run(
                    """
                    search isbn \(Self.potter)
                    save
                    library set \(Self.potter) --shelf read --rating 5
                    search isbn \(Self.twilight)
                    save
                    library set \(Self.twilight) --shelf read --rating 1
                    recommend --library --limit 10
                    """
                ) == 0,
                "\(shell.err)"
            )
            let rows = await shell.lastResult()["results"]?.arrayValue ?? []
            #expect(!rows.isEmpty)
            let titles = rows.compactMap { $0["title"]?.stringValue }
            #expect(!titles.contains { $0.contains("(Twilight,") }, "\(titles)")
            #expect(!titles.contains { $0.hasPrefix("Harry Potter and the Sorcerer") })
        }
    }

    @Test func helpSaysWhereThePersonalListComesFrom() async throws {
        try await withShell { shell in
            #expect(await shell.run("help recommend --output table") == 0)
            #expect(shell.out.contains("--library"))
            #expect(shell.out.contains("weekly_fallback"))
            #expect(await shell.run("help semantic --output table") == 0)
            let words = shell.out.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
            #expect(!words.contains("over book descriptions"), "\(shell.out)")
            #expect(words.contains("the catalog has no descriptions"), "\(shell.out)")
            #expect(
                words.contains("sentence model all-MiniLM-L6-v2") && words.contains("scripts/setup"),
                "\(shell.out)"
            )
        }
    }
}
