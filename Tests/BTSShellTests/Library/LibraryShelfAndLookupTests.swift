import BTSLanguage
import BTSShell
import BooksTrackContract
import BooksTrackLibrary
import Foundation
import Testing

/// Issue 33, items 4 and 10: a number that is no book's id is read as title words (`library show
/// 1984`), and `save --shelf` moves books already in the library, offers and checks shelf names.
@Suite("Library: numbers as titles, save --shelf")
struct LibraryShelfAndLookupTests {
    static let nineteenEightyFour = "9780451524935"
    static let hungerGames = "9780439023481"

    @Test func aNumberThatIsNoIDIsReadAsTitleWords() async throws {
        try await withShell { shell in
            #expect(
                await shell.run("search isbn \(Self.hungerGames)\nsave\nsearch isbn \(Self.nineteenEightyFour)\nsave")
                    == 0,
                "\(shell.err)"
            )
            // No book has id 1984: the number is the title.
            #expect(await shell.run("library show 1984") == 0, "\(shell.err)")
            #expect(await shell.lastResult()["isbn"]?.stringValue == Self.nineteenEightyFour)
            // A number that is an id stays an id.
            #expect(await shell.run("library show 1") == 0, "\(shell.err)")
            #expect(await shell.lastResult()["isbn"]?.stringValue == Self.hungerGames)
            // Neither an id nor a title: not found, as before.
            #expect(await shell.run("library show 4321") == 1)
            #expect(shell.err.contains("no book in your library matches '4321'"), "\(shell.err)")
            // The help says so.
            #expect(await shell.run("help library show --output table") == 0)
            let help = shell.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(help.contains("a number no book has as its ID is read as title words"), "\(shell.out)")
        }
    }

    @Test func saveWithAShelfMovesABookAlreadyThere() async throws {
        try await withShell { shell in
            #expect(await shell.run("search isbn \(Self.hungerGames)\nsave") == 0, "\(shell.err)")
            #expect(await shell.run("library show \(Self.hungerGames)") == 0)
            #expect(await shell.lastResult()["shelf"]?.stringValue == "to-read")
            #expect(await shell.run("search isbn \(Self.hungerGames)\nsave --shelf read") == 0, "\(shell.err)")
            #expect(await shell.run("library show \(Self.hungerGames)") == 0)
            #expect(await shell.lastResult()["shelf"]?.stringValue == "read")
            // Without --shelf a book already there keeps its shelf.
            #expect(await shell.run("search isbn \(Self.hungerGames)\nsave") == 0, "\(shell.err)")
            #expect(await shell.run("library show \(Self.hungerGames)") == 0)
            #expect(await shell.lastResult()["shelf"]?.stringValue == "read")
        }
    }

    @Test func aShelfATypoAwayFromOneIsRefusedWithTheNearest() async throws {
        try await withShell { shell in
            #expect(await shell.run("search isbn \(Self.hungerGames)\nsave --shelf reed") == 2)
            #expect(shell.err.contains("there is no shelf 'reed' yet; did you mean 'read'?"), "\(shell.err)")
            #expect(await shell.run("library list") == 0)
            #expect(await shell.lastResult()["count"]?.intValue == 0)
            // A new name far from every shelf makes a shelf.
            #expect(await shell.run("search isbn \(Self.hungerGames)\nsave --shelf abandoned") == 0, "\(shell.err)")
            #expect(await shell.run("library set \(Self.hungerGames) --shelf abandonned") == 2)
            #expect(shell.err.contains("did you mean 'abandoned'?"), "\(shell.err)")
            // The filters too: a typo is not an empty list.
            #expect(await shell.run("library list --shelf reed") == 2)
            #expect(shell.err.contains("there is no shelf 'reed' yet; did you mean 'read'?"), "\(shell.err)")
            #expect(await shell.run("library search hunger --shelf abandonned") == 2)
            for line in ["library export - --shelf abandonned", "similar --library --shelf abandonned"] {
                let before = shell.err.count
                #expect(await shell.run(line) == 2, "\(line)")
                #expect(
                    String(shell.err.dropFirst(before)).contains("did you mean 'abandoned'?"),
                    "\(line): \(shell.err)"
                )
            }
            #expect(await shell.run("library list --shelf abandoned") == 0)
            #expect(await shell.lastResult()["count"]?.intValue == 1)
        }
    }

    /// `--shelf <TAB>` offers shelves, `--tag <TAB>` tags (shelf completion offered tags, which
    /// then matched nothing).
    @Test func shelfCompletionOffersShelvesOnly() async throws {
        try await withShell { shell in
            try shell.write("gr.csv", try LibraryFixtures.text("goodreads_library_export.csv"))
            #expect(await shell.run("library import gr.csv") == 0, "\(shell.err)")
            let store = CompletionContextStore()
            await shell.shell.updateCompletionContext(store)
            let engine = CompletionEngine(context: store)
            let line = "save --shelf "
            let shelves = engine.answer(line: line, cursorOffset: line.utf8.count).candidates
            #expect(shelves.contains("read") && shelves.contains("to-read"), "\(shelves)")
            #expect(!shelves.contains("favorites") && !shelves.contains("fantasy"), "\(shelves)")
            for tagLine in ["library set 1 --tag fa", "library list --tag fa"] {
                let tags = engine.answer(line: tagLine, cursorOffset: tagLine.utf8.count).candidates
                #expect(tags.contains("favorites") && tags.contains("fantasy"), "\(tagLine): \(tags)")
            }
        }
    }
}
