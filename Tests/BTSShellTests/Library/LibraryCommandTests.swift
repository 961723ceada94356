import BTSLanguage
import BooksTrackContract
import BooksTrackLibrary
import Foundation
import Testing

@testable import BTSShell

/// Each library command: help, results, errors (plain, with exit codes), completion, and the
/// library answering when the backend is unreachable.
@Suite("Library commands")
struct LibraryCommandTests {
    static let hungerGames = "9780439023481"

    @Test func helpListsTheLibraryCommands() async throws {
        try await withShell { shell in
            #expect(await shell.run("help --output table") == 0)
            #expect(shell.out.contains("Library commands:"))
            #expect(shell.out.contains("library"))
            #expect(shell.out.contains("save"))
            #expect(await shell.run("help library set --output table") == 0)
            #expect(shell.out.contains("--rating N"))
        }
    }

    @Test func saveSearchResultsThenListShowSetRemove() async throws {
        try await withShell { shell in
            #expect(await shell.run("search isbn \(Self.hungerGames)\nsave") == 0, "\(shell.err)")
            #expect(await shell.run("search isbn \(Self.hungerGames)\nsave --output json") == 0)
            #expect(shell.out.contains("\"alreadyThere\":1"), "\(shell.out)")
            // `save` leaves $_ as the saved books.
            #expect(await shell.lastResult()["kind"]?.stringValue == "isbn")

            #expect(await shell.run("library list --shelf to-read") == 0)
            let listed = await shell.lastResult()
            #expect(listed["count"]?.intValue == 1)
            let id = try #require(listed["books"]?.arrayValue?.first?["id"]?.intValue)

            #expect(
                await shell.run(
                    "library set \(Self.hungerGames) --shelf read --rating 4.5 --read 2024-03-02 --tag dystopia,ya --notes \"Reread it\""
                ) == 0,
                "\(shell.err)"
            )
            let set = await shell.lastResult()
            #expect(set["shelf"]?.stringValue == "read")
            #expect(set["rating"]?.doubleValue == 4.5)
            #expect(set["dateRead"]?.stringValue == "2024-03-02")
            #expect(set["tags"] == .array([.string("dystopia"), .string("ya")]))
            #expect(set["notes"]?.stringValue == "Reread it")

            #expect(await shell.run("library show \(id)") == 0)
            #expect(await shell.lastResult()["isbn"]?.stringValue == Self.hungerGames)
            #expect(await shell.run("library list --year-read 2024 --rating 4+ --author collins") == 0)
            #expect(await shell.lastResult()["count"]?.intValue == 1)
            #expect(await shell.run("library search dystopia") == 0)
            #expect(await shell.lastResult()["count"]?.intValue == 1)
            #expect(await shell.run("library stats --output table") == 0)
            #expect(shell.out.contains("Books read per year"))
            #expect(shell.out.contains("2024 █"), "\(shell.out)")

            #expect(await shell.run("library remove \(Self.hungerGames)") == 0)
            #expect(await shell.run("library list") == 0)
            #expect(await shell.lastResult()["count"]?.intValue == 0)
        }
    }

    @Test func errorsArePlainWithExitCodes() async throws {
        try await withShell { shell in
            #expect(await shell.run("library show 9780441172719") == 1)
            #expect(shell.err.contains("no book in your library matches '9780441172719'"), "\(shell.err)")
            #expect(await shell.run("library set 9780441172719 --rating 7") == 2)
            #expect(shell.err.contains("invalid value '7' for --rating"), "\(shell.err)")
            #expect(await shell.run("library list --rating lots") == 2)
            #expect(await shell.run("library set 1 --read yesterday") == 2)
            #expect(await shell.run("library set 1") == 2)
            #expect(await shell.run("library") == 2)
            #expect(shell.err.contains("missing subcommand for 'library'"))
            #expect(await shell.run("library lsit") == 2)
            #expect(shell.err.contains("did you mean 'list'?"))
            #expect(await shell.run("save") == 1)
            #expect(shell.err.contains("nothing to save"))
            #expect(await shell.run("library import missing.csv") == 2)
            #expect(shell.err.contains("no such file"))
            try shell.write("notes.csv", "a,b\n1,2\n")
            #expect(await shell.run("library import notes.csv") == 2)
            #expect(shell.err.contains("not a Goodreads or StoryGraph export"), "\(shell.err)")
            #expect(await shell.run("library export \(shell.directory.path)") == 2)
            #expect(!shell.err.contains("SQLITE"))
        }
    }

    @Test func ambiguousTitlesListTheCandidates() async throws {
        try await withShell { shell in
            try shell.write("gr.csv", try LibraryFixtures.text("goodreads_library_export.csv"))
            #expect(await shell.run("library import gr.csv") == 0, "\(shell.err)")
            #expect(await shell.lastResult()["library"]?["created"]?.intValue == 10)
            #expect(await shell.run("library show hunger games") == 1)
            #expect(shell.err.contains("matches 2 books"), "\(shell.err)")
            #expect(shell.err.contains("9780439023528"))
            #expect(await shell.run("library show piranesi") == 0)
        }
    }

    /// No backend at all: library commands never start or need one; lookups of books in the
    /// library are answered from it (one line on stderr), others fail with the network's exit 3.
    @Test func offlineLibraryAnswersForAnUnreachableServer() async throws {
        try await withShell(backend: BackendRequest(apiURL: "http://127.0.0.1:\(closedPort())")) { shell in
            try shell.write("gr.csv", try LibraryFixtures.text("goodreads_library_export.csv"))
            #expect(
                await shell.run(
                    "library import gr.csv\nlibrary list --shelf read\nlibrary stats\nlibrary export out.csv"
                ) == 0,
                "\(shell.err)"
            )
            #expect(await shell.run("search isbn \(Self.hungerGames)") == 0, "\(shell.err)")
            let answer = await shell.lastResult()
            #expect(answer["answeredBy"]?.stringValue == "library")
            #expect(answer["results"]?.arrayValue?.first?["isbn"]?.stringValue == Self.hungerGames)
            #expect(
                shell.err.contains("the server is unreachable: answered from your library (1 book)"),
                "\(shell.err)"
            )
            #expect(await shell.run("search dune") == 0)
            // `similar` of a book you have: your books in its series or by its author.
            #expect(await shell.run("similar \(Self.hungerGames)") == 0, "\(shell.err)")
            let similar = await shell.lastResult()
            #expect(similar["answeredBy"]?.stringValue == "library")
            #expect(similar["results"]?.arrayValue?.first?["isbn"]?.stringValue == "9780439023528", "\(similar)")
            #expect(await shell.run("similar 9780553293357") == 3)
            // By title too: the title is looked up in your library.
            #expect(await shell.run("similar the hunger games") == 0, "\(shell.err)")
            #expect(await shell.lastResult()["answeredBy"]?.stringValue == "library")
            #expect(await shell.run("similar foundation and empire") == 3)
            #expect(await shell.run("search isbn 9780553293357") == 3)
        }
    }

    @Test func libraryCommandsNeverOpenABackend() async throws {
        try await withShell { shell in
            #expect(await shell.run("library list\nlibrary shelves\nlibrary stats") == 0)
            #expect(await shell.shell.connection == nil)
        }
    }

    @Test func similarFromTheLibraryLeavesOutBooksYouHave() async throws {
        try await withShell { shell in
            #expect(
                await shell.run("search isbn \(Self.hungerGames)\nsave --shelf read\nsimilar --library --limit 5") == 0,
                "\(shell.err)"
            )
            let similar = await shell.lastResult()
            let isbns = similar["results"]?.arrayValue?.compactMap { $0["isbn"]?.stringValue } ?? []
            #expect(!isbns.isEmpty)
            #expect(!isbns.contains(Self.hungerGames))
            // Two sources: the scores stay on `similar`'s 0–1 scale (they were sums, up to 2 here).
            #expect(
                await shell.run("search isbn 9780439023498\nsave --shelf read\nsimilar --library --limit 5") == 0,
                "\(shell.err)"
            )
            let scores = await shell.lastResult()["results"]?.arrayValue?.compactMap { $0["score"]?.doubleValue } ?? []
            #expect(!scores.isEmpty && scores.allSatisfy { $0 > 0 && $0 <= 1 }, "\(scores)")
            #expect(await shell.run("library remove 9780439023498") == 0, "\(shell.err)")
            #expect(await shell.run("similar --shelf to-read") == 1)
            #expect(shell.err.contains("no books with an ISBN"), "\(shell.err)")
            #expect(await shell.run("similar \(Self.hungerGames) --library") == 2)

            // A pick already saved is marked.
            #expect(await shell.run("similar \(Self.hungerGames) --limit 3") == 0)
            let first = try #require(await shell.lastResult()["results"]?.arrayValue?.first?["isbn"]?.stringValue)
            #expect(await shell.lastResult()["results"]?.arrayValue?.first?["inLibrary"] == .bool(false))
            #expect(await shell.run("save\nsimilar \(Self.hungerGames) --limit 3") == 0)
            #expect(await shell.lastResult()["results"]?.arrayValue?.first?["isbn"]?.stringValue == first)
            #expect(await shell.lastResult()["results"]?.arrayValue?.first?["inLibrary"] == .bool(true))
            #expect(await shell.run("recommend --limit 3") == 0)
            #expect(await shell.lastResult()["results"]?.arrayValue?.first?["inLibrary"] != nil)
        }
    }

    @Test func enrichmentRefreshesStoredBooks() async throws {
        try await withShell { shell in
            try shell.write("gr.csv", try LibraryFixtures.text("goodreads_library_export.csv"))
            #expect(await shell.run("library import gr.csv\nenrich \(Self.hungerGames)") == 0, "\(shell.err)")
            let enriched = await shell.lastResult()
            #expect(enriched["library"] != nil, "\(enriched)")
            #expect(await shell.run("library show \(Self.hungerGames)") == 0)
            let sources = await shell.lastResult()["sources"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(sources.contains { $0.hasPrefix("enrichment") }, "\(sources)")
            // Your fields stay.
            #expect(await shell.lastResult()["rating"]?.doubleValue == 5)
        }
    }

    @Test func completionOffersShelvesAndLibraryBooks() async throws {
        try await withShell { shell in
            try shell.write("gr.csv", try LibraryFixtures.text("goodreads_library_export.csv"))
            #expect(await shell.run("library import gr.csv") == 0)
            let store = CompletionContextStore()
            await shell.shell.updateCompletionContext(store)
            let engine = CompletionEngine(context: store)
            let shelves = engine.answer(line: "library list --shelf cu", cursorOffset: 23).candidates
            #expect(shelves == ["currently-reading"])
            let tags = engine.answer(line: "library set 1 --tag fa", cursorOffset: 22).candidates
            #expect(tags.contains("favorites") && tags.contains("fantasy"), "\(tags)")
            let isbns = engine.answer(line: "library show 97804390234", cursorOffset: 24).candidates
            #expect(isbns.contains(Self.hungerGames), "\(isbns)")
            let titles = engine.answer(line: "library show Pira", cursorOffset: 17).candidates
            #expect(titles.contains { $0.contains("Piranesi") }, "\(titles)")
        }
    }
}

/// The client-side check before an upload accepts both exporters' files as they are.
@Suite("Import preflight: exports")
struct ImportPreflightExportTests {
    @Test(arguments: ["goodreads_library_export.csv", "storygraph_export.csv"])
    func acceptsTheExport(_ name: String) throws {
        try CSVPreflight.check(LibraryFixtures.directory.appendingPathComponent(name), shownAs: name, range: nil)
    }
}
