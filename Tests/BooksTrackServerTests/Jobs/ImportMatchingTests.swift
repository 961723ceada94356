import BooksTrackCatalog
import BooksTrackContract
import Foundation
import Logging
import NIOHTTP1
import Testing

@testable import BooksTrackServer

/// An import row without a usable ISBN is matched by its title as the catalog's search forgives it
/// ("The Hobit" → The Hobbit; "Dun" by Frank Herbert → Dune), only when `ImportMatchRule` accepts
/// the book; every such row is named in the results' `matches`, on the v2 and the v3 routes.
@Suite("import matching", .onWorkThreads, .timeLimit(.minutes(TestTime.minutes(10))))
struct ImportMatchingTests {
    static let dune = JobsFakeCatalog.make(
        126,
        "0340839937",
        "Dune (Dune Chronicles #1)",
        ["Frank Herbert"],
        1965,
        original: "Dune"
    )
    static let messiah = JobsFakeCatalog.make(
        1105,
        "0441172695",
        "Dune Messiah (Dune Chronicles #2)",
        ["Frank Herbert"],
        1969
    )
    static let hobbit = JobsFakeCatalog.make(
        7,
        "0618260307",
        "The Hobbit",
        ["J.R.R. Tolkien"],
        1937,
        original: "The Hobbit or There and Back Again"
    )
    static let potter = JobsFakeCatalog.make(
        2,
        "0439554934",
        "Harry Potter and the Sorcerer's Stone (Harry Potter, #1)",
        ["J.K. Rowling", "Mary GrandPré"],
        1997
    )

    // MARK: The rule (pure)

    @Test func titleConfidenceFollowsTheRule() {
        #expect(ImportMatchRule.titleConfidence("Dune", Self.dune) == 1)
        #expect(ImportMatchRule.titleConfidence("Dune (Dune Chronicles #1)", Self.dune) == 1)
        #expect(ImportMatchRule.titleConfidence("the HOBBIT", Self.hobbit) == 1)
        #expect(ImportMatchRule.titleConfidence("Hobbit", Self.hobbit) == 1)
        // One edit in a word of 3–5 letters, as the search corrects.
        #expect(ImportMatchRule.titleConfidence("Dun", Self.dune) == 0.75)
        #expect(abs(ImportMatchRule.titleConfidence("The Hobit", Self.hobbit) - 5.0 / 6) < 1e-9)
        // A title followed by more words; a single word followed by more words weighs less.
        #expect(ImportMatchRule.titleConfidence("Harry Potter", Self.potter) == 0.9)
        #expect(ImportMatchRule.titleConfidence("Dune", Self.messiah) == 0.75)
        #expect(ImportMatchRule.titleConfidence("Harry Potter and the Sorcerers Stone", Self.potter) == 1)
        // Two edits of six letters: within the tolerance, too far to be taken (below either bound).
        #expect(abs(ImportMatchRule.titleConfidence("The Hobbyist", Self.hobbit) - 4.0 / 6) < 1e-9)
        #expect(ImportMatchRule.accepted(Self.hobbit, title: "The Hobbyist", author: "Tolkien") == nil)
        // Beyond the tolerance, other words, digits: nothing.
        #expect(ImportMatchRule.titleConfidence("Dn", Self.dune) == 0)
        #expect(ImportMatchRule.titleConfidence("The Hobbitses", Self.hobbit) == 0)
        #expect(ImportMatchRule.titleConfidence("Lord of the Flies", Self.hobbit) == 0)
        #expect(ImportMatchRule.titleConfidence("Harry Potter 2", Self.potter) == 0)
    }

    @Test func theAuthorDecidesAWeakTitleAndRefusesAnotherAuthorsBook() {
        // "Dun" alone is too far from "Dune"; with Frank Herbert (however the file spells him) it is Dune.
        #expect(ImportMatchRule.accepted(Self.dune, title: "Dun", author: nil) == nil)
        for author in ["Frank Herbert", "Herbert", "Herbert, Frank", "Frank Herbet"] {
            #expect(ImportMatchRule.accepted(Self.dune, title: "Dun", author: author) == 0.75, "\(author)")
        }
        #expect(ImportMatchRule.accepted(Self.dune, title: "Dun", author: "Frank") == nil)
        #expect(ImportMatchRule.accepted(Self.messiah, title: "Dune", author: nil) == nil)
        // A good title by another author is not the row's book.
        #expect(ImportMatchRule.accepted(Self.hobbit, title: "The Hobbit", author: "Stephen King") == nil)
        #expect(ImportMatchRule.accepted(Self.hobbit, title: "The Hobit", author: nil) != nil)
        #expect(ImportMatchRule.accepted(Self.hobbit, title: "The Hobit", author: "Tolkein") != nil)
        #expect(ImportMatchRule.accepted(Self.potter, title: "Harry Potter", author: "Mary GrandPre") == 0.9)
    }

    // MARK: Over the real catalog

    /// An ISBN row, "Dun" by Frank Herbert, "The Hobit", a nonsense title, "Dun" alone and The Hobbit
    /// by the wrong author.
    static let csv = """
        Title,Author,ISBN13
        The Hunger Games,Suzanne Collins,9780439023481
        Dun,Frank Herbert,
        The Hobit,,
        Qwxzy Vrumble Plonk,,
        Dun,,
        The Hobbit,Stephen King,

        """

    static let expectedMatches = [
        ImportMatch(
            row: 2,
            csvTitle: "Dun",
            matchedTitle: "Dune (Dune Chronicles #1)",
            matchedAuthors: ["Frank Herbert"],
            isbn: "9780340839935",
            matchedBy: .title
        ),
        ImportMatch(
            row: 3,
            csvTitle: "The Hobit",
            matchedTitle: "The Hobbit",
            matchedAuthors: ["J.R.R. Tolkien"],
            isbn: "9780618260300",
            matchedBy: .title
        ),
    ]

    static let expectedErrors = [
        ImportRowError(row: 4, isbn: "", error: "no catalog match for title 'Qwxzy Vrumble Plonk'"),
        ImportRowError(row: 5, isbn: "", error: "no catalog match for title 'Dun'"),
        ImportRowError(row: 6, isbn: "", error: "no catalog match for title 'The Hobbit' by 'Stephen King'"),
    ]

    static func checkResults(_ results: ImportResults) {
        #expect(results.books.map(\.isbn) == ["9780439023481", "9780340839935", "9780618260300"])
        #expect(results.booksCreated == 3)
        #expect(results.matches == expectedMatches)
        #expect(results.errors == expectedErrors)
    }

    @Test func theV2RoutesMatchTitlesAsSearchForgivesThem() async throws {
        try await withJobServer(catalog: try SharedCatalog.get()) { server in
            let results = try await importedResults(server, Self.csv)
            Self.checkResults(results)
            // The wire: `matches` beside the documented keys, each row as the contract type says.
            let accepted = try await uploadCSV(server, Self.csv)
            let id = try #require(try accepted.data()["jobId"]?.stringValue)
            _ = try await waitForEnd(server.engine, id)
            let body = try await httpRequest(.GET, server.base + "/v1/jobs/\(id)/results").data()
            #expect(
                body["matches"]?[0] == [
                    "row": 2, "csvTitle": "Dun", "matchedTitle": "Dune (Dune Chronicles #1)",
                    "matchedAuthors": ["Frank Herbert"],
                    "isbn": "9780340839935", "matchedBy": "title",
                ]
            )
        }
    }

    @Test func theV3RoutesCarryTheSameMatches() async throws {
        try await LiveServer.running(
            ServerConfiguration(port: 0),
            catalog: try SharedCatalog.get(),
            modules: [CoreRoutes(), V3Routes(), JobRoutes()],
            logLevel: .error
        ) { server in
            let (id, token) = try V3JobTests.accepted(try await V3JobTests.upload(server, Self.csv))
            let stream = try await V3JobTests.readStream(server, "/v3/jobs/imports/\(id)/stream", token: token)
            #expect(sseBlocks(stream.text).last?.event == "completed", "\(stream.text)")
            let response = try await httpRequest(.GET, server.base + "/v3/jobs/imports/\(id)/results")
            #expect(response.status == 200)
            let stored = try #require(try response.data()["results"])
            Self.checkResults(try #require(stored.decoded(as: ImportResults.self)))
        }
    }

    /// A file with every row matched by ISBN sends no `matches` (the documented shape, as before).
    @Test func isbnMatchesAreNotListed() async throws {
        try await withJobServer(catalog: try SharedCatalog.get()) { server in
            let accepted = try await uploadCSV(server, "Title,ISBN\nDune,9780340839935\n")
            let id = try #require(try accepted.data()["jobId"]?.stringValue)
            _ = try await waitForEnd(server.engine, id)
            let body = try await httpRequest(.GET, server.base + "/api/v2/imports/\(id)/results").data()
            #expect(body["booksCreated"] == 1)
            #expect(body["matches"] == nil)
        }
    }
}
