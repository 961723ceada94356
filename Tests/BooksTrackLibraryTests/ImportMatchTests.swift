import BooksTrackContract
import BooksTrackLibrary
import Foundation
import Testing

/// A finished import whose server matched rows by title (`ImportResults.matches`): such a row without
/// an ISBN is kept as the matched book (its ISBN, title, authors, series) with the user's columns and
/// the file's own title as a `csv-title` source; a row with its own ISBN keeps it; a match that is
/// not the row's is ignored.
@Suite(.onWorkThreads) struct ImportMatchTests {
    static let file = """
        Title,Author,ISBN13,My Rating,Exclusive Shelf
        The Hunger Games,Suzanne Collins,9780439023481,5,read
        Dun,Frank Herbert,,4,read
        "Twilight (Twilight, #1)",Stephenie Meyer,9781234567897,2,read
        Emma,Jane Austen,,,to-read

        """

    static let twilight = ISBN("0316015849")?.isbn13 ?? ""

    static let results = ImportResults(
        booksCreated: 4,
        booksUpdated: 0,
        duplicatesSkipped: 0,
        enrichmentSucceeded: 4,
        enrichmentFailed: 0,
        books: [
            Book(
                isbn: "9780439023481",
                isbn13: "9780439023481",
                title: "The Hunger Games",
                authors: ["Suzanne Collins"]
            ),
            Book(
                isbn: "9780340839935",
                isbn13: "9780340839935",
                title: "Dune (Dune Chronicles #1)",
                authors: ["Frank Herbert"],
                publishedDate: "1965"
            ),
            Book(isbn: twilight, isbn13: twilight, title: "Twilight (Twilight, #1)", authors: ["Stephenie Meyer"]),
            Book(isbn: "9780141439686", isbn13: "9780141439686", title: "Persuasion", authors: ["Jane Austen"]),
        ],
        matches: [
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
                csvTitle: "Twilight (Twilight, #1)",
                matchedTitle: "Twilight (Twilight, #1)",
                matchedAuthors: ["Stephenie Meyer"],
                isbn: twilight,
                matchedBy: .title
            ),
            // Not row 4's title: the file changed since the upload; the match is not applied.
            ImportMatch(
                row: 4,
                csvTitle: "Persuasion",
                matchedTitle: "Persuasion",
                matchedAuthors: ["Jane Austen"],
                isbn: "9780141439686",
                matchedBy: .title
            ),
        ]
    )

    @Test func aRowMatchedByTitleIsKeptAsTheMatchedBook() async throws {
        let t = try TempLibrary("matched")
        defer { t.cleanup() }
        let rows = try ExportReader.read(Data(Self.file.utf8)).books
        #expect(try await t.library.importJob(Self.results, jobID: "job-1", rows: rows) == SaveSummary(created: 4))
        let books = try await t.library.list()
        #expect(!books.contains { $0.title == "Dun" })

        let dune = try #require(books.first { $0.isbn13 == "9780340839935" })
        #expect(dune.title == "Dune (Dune Chronicles #1)")
        #expect(dune.authors == ["Frank Herbert"])
        #expect(dune.data.series == "Dune Chronicles" && dune.data.seriesNumber == 1)
        #expect(dune.reading.shelf == .read && dune.reading.rating == 4)
        #expect(Set(dune.provenance) == [.importJob("job-1"), .csvTitle("Dun")])

        // A row with an ISBN of its own the catalog lacks names its own edition: it keeps its ISBN
        // and title (two editions of one book stay two books), the matched book filling gaps.
        let twilight = try #require(books.first { $0.isbn13 == "9781234567897" })
        #expect(twilight.title == "Twilight (Twilight, #1)" && twilight.authors == ["Stephenie Meyer"])
        #expect(twilight.reading.rating == 2)
        #expect(twilight.provenance == [.importJob("job-1")])
        #expect(!books.contains { $0.isbn13 == Self.twilight })

        // Matched by ISBN: as before, no csv-title.
        #expect(books.first { $0.isbn13 == "9780439023481" }?.provenance == [.importJob("job-1")])
        // The stale match changed nothing: Emma is the file's row.
        let emma = try #require(books.first { $0.title == "Emma" })
        #expect(emma.isbn13 == nil && emma.provenance == [.importJob("job-1")])
        #expect(!books.contains { $0.title == "Persuasion" })

        // The same import again adds nothing.
        let again = try await t.library.importJob(Self.results, jobID: "job-2", rows: rows)
        #expect(again.created == 0 && again.updated == 0, "\(again)")
    }

    /// Without the file (it moved since the upload), the server's books carry the rows' titles.
    @Test func withoutTheFileTheServersBooksCarryTheRowsTitles() async throws {
        let t = try TempLibrary("no-file")
        defer { t.cleanup() }
        #expect(try await t.library.importJob(Self.results, jobID: "job-1", rows: []) == SaveSummary(created: 4))
        let books = try await t.library.list()
        #expect(
            Set(books.first { $0.isbn13 == "9780340839935" }?.provenance ?? []) == [
                .importJob("job-1"), .csvTitle("Dun"),
            ]
        )
        // The same title as the book's is no news.
        #expect(books.first { $0.isbn13 == Self.twilight }?.provenance == [.importJob("job-1")])
    }

    /// Production's results have no `matches`: rows are matched to books as before.
    @Test func withoutMatchesTheRowsAreMatchedAsBefore() async throws {
        let t = try TempLibrary("production")
        defer { t.cleanup() }
        var results = Self.results
        results.matches = []
        let rows = try ExportReader.read(Data(Self.file.utf8)).books
        _ = try await t.library.importJob(results, jobID: "job-1", rows: rows)
        let books = try await t.library.list()
        #expect(books.contains { $0.title == "Dun" && $0.isbn13 == nil })
        #expect(!books.contains { $0.provenance.contains { $0.source == .csvTitle } })
    }
}
