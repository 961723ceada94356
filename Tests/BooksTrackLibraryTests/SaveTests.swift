import BooksTrackContract
import BooksTrackLibrary
import Foundation
import Testing

@Suite(.onWorkThreads) struct SaveTests {
    let hunger = SearchResultItem(
        title: "The Hunger Games",
        authors: ["Suzanne Collins"],
        isbn: "9780439023481",
        isbns: ["9780439023481"],
        publisher: "Scholastic Press",
        year: 2008,
        pageCount: 374
    )

    @Test func sameISBNIsTheSameBookWhateverItsForm() async throws {
        let t = try TempLibrary("isbn")
        defer { t.cleanup() }
        let results = SearchResults(items: [hunger])
        #expect(try await t.library.save(BookData.books(results), from: .search("hunger")) == SaveSummary(created: 1))
        #expect(
            try await t.library.save(BookData.books(results), from: .search("hunger")) == SaveSummary(alreadyThere: 1)
        )
        // ISBN-10, hyphens, Goodreads' formula cell: all the same book.
        for raw in ["0439023483", "978-0-439-02348-1", "=\"0439023483\""] {
            let s = try await t.library.save(
                [BookData(title: "The Hunger Games", authors: ["Suzanne Collins"], isbn: raw)],
                from: .manual
            )
            #expect(s == SaveSummary(alreadyThere: 1), "\(raw)")
        }
        #expect(try await t.library.count() == 1)
        let book = try #require(try await t.library.list().first)
        #expect(book.reading.shelf == .toRead)
        #expect(book.reading.dateAdded == TempLibrary.today)
        #expect(Set(book.provenance) == [.search("hunger"), .manual])
    }

    @Test func dataSavesNeverClobberTheUsersFields() async throws {
        let t = try TempLibrary("clobber")
        defer { t.cleanup() }
        _ = try await t.library.importBooks(
            [
                ImportedBook(
                    row: 1,
                    data: BookData(title: "The Hunger Games", authors: ["Suzanne Collins"], isbn: "9780439023481"),
                    reading: ReadingFields(
                        shelf: .read,
                        tags: ["dystopia"],
                        rating: 4,
                        dateRead: BookDate(year: 2020, month: 1, day: 2),
                        dateAdded: BookDate(year: 2019, month: 12, day: 1),
                        review: "Mine"
                    )
                )
            ],
            from: .importFile("x.csv")
        )
        let before = try #require(try await t.library.list().first)
        // A search result fills what is missing (publisher, pages) and is an update...
        #expect(
            try await t.library.save([BookData(hunger)], from: .search(), shelf: .currentlyReading)
                == SaveSummary(updated: 1)
        )
        // ...an enrichment refreshes data (publisher replaced)...
        let enriched = EnrichedBook(
            isbn: "9780439023481",
            title: "The Hunger Games",
            authors: ["Suzanne Collins"],
            publisher: "Scholastic",
            description: "Winning will make you famous.",
            pageCount: 384,
            provider: "isbndb",
            enrichedAt: "2025-01-01",
            vectorized: true
        )
        #expect(
            try await t.library.refresh([BookData(enriched)], from: .enrichment("isbndb")) == SaveSummary(updated: 1)
        )
        #expect(
            try await t.library.refresh([BookData(enriched)], from: .enrichment("isbndb"))
                == SaveSummary(alreadyThere: 1)
        )
        let after = try #require(try await t.library.list().first)
        #expect(after.reading == before.reading, "user fields untouched by search and enrichment")
        #expect(after.data.publisher == "Scholastic")
        #expect(after.data.pageCount == 384)
        #expect(after.data.description == "Winning will make you famous.")
        // A search result does not overwrite what enrichment stored.
        #expect(try await t.library.save([BookData(hunger)], from: .search()) == SaveSummary(alreadyThere: 1))
        #expect(try await t.library.list().first?.data.publisher == "Scholastic")
    }

    @Test func refreshDoesNotAddBooks() async throws {
        let t = try TempLibrary("refresh")
        defer { t.cleanup() }
        let s = try await t.library.refresh([BookData(hunger)], from: .enrichment())
        #expect(s == SaveSummary(skipped: 1))
        #expect(try await t.library.count() == 0)
    }

    @Test func aBookWithoutISBNTakesOneWhenItArrives() async throws {
        let t = try TempLibrary("adopt")
        defer { t.cleanup() }
        _ = try await t.library.importBooks(
            [
                ImportedBook(
                    row: 1,
                    data: BookData(title: "Piranesi", authors: ["Susanna Clarke"]),
                    reading: ReadingFields(shelf: .read, rating: 5)
                )
            ],
            from: .importFile("gr.csv")
        )
        let s = try await t.library.save(
            [BookData(title: "Piranesi", authors: ["Susanna  Clarke"], isbn: "9781635575637", publisher: "Bloomsbury")],
            from: .search()
        )
        #expect(s == SaveSummary(updated: 1))
        let book = try #require(try await t.library.list().first)
        #expect(book.isbn13 == "9781635575637")
        #expect(book.key == "isbn:9781635575637")
        #expect(book.reading.rating == 5)
        #expect(try await t.library.count() == 1)
    }

    @Test func editionsGroupUnderOneWorkAndAuthorsAreRows() async throws {
        let t = try TempLibrary("works")
        defer { t.cleanup() }
        let s = try await t.library.save(
            [
                BookData(
                    title: "The Hunger Games (The Hunger Games, #1)",
                    authors: ["Suzanne Collins"],
                    isbn: "9780439023481"
                ),
                BookData(title: "The Hunger Games", authors: ["Suzanne Collins"], isbn: "9780439023528"),
                BookData(
                    title: "Catching Fire (The Hunger Games, #2)",
                    authors: ["Suzanne Collins"],
                    isbn: "9780439023498"
                ),
            ],
            from: .search()
        )
        #expect(s == SaveSummary(created: 3))
        let stats = try await t.library.stats()
        #expect(stats.books == 3)
        #expect(stats.works == 2)
        #expect(stats.authors == 1)
        #expect(try await t.library.list(LibraryFilter(author: "collins")).count == 3)
    }

    @Test func everyContractResultTypeSaves() async throws {
        let t = try TempLibrary("contract")
        defer { t.cleanup() }
        let similar = SimilarResults(
            sourceISBN: "9780439023481",
            items: [
                SimilarResults.Item(
                    isbn: "9780439023498",
                    title: "Catching Fire",
                    authors: ["Suzanne Collins"],
                    score: 0.9
                )
            ]
        )
        let recs = WeeklyRecommendations(
            weekOf: "2025-02-03",
            items: [
                WeeklyRecommendations.Item(
                    isbn: "9780441172719",
                    title: "Dune",
                    authors: ["Frank Herbert"],
                    reason: "classic"
                )
            ]
        )
        let v2 = V2SearchResponse(
            query: .init(q: "wizard school", mode: .semantic, limit: 5),
            results: [
                SearchHit(
                    isbn: "9780439554930",
                    title: "Harry Potter and the Sorcerer's Stone",
                    authors: ["J.K. Rowling"],
                    score: 0.8
                )
            ]
        )
        let batch = [
            BatchItemResult(
                title: "Dune",
                isbn: "9780441172719",
                success: true,
                enriched: EnrichedRecord(
                    work: WorkDTO(title: "Dune", subjectTags: ["science fiction"], firstPublicationYear: 1965),
                    edition: EditionDTO(isbns: ["9780441172719"], format: .paperback, publisher: "Ace"),
                    authors: [AuthorDTO(name: "Frank Herbert")]
                )
            ),
            BatchItemResult(title: "Nothing", success: false, error: "not found"),
        ]
        #expect(
            try await t.library.save(BookData.books(similar), from: .similar(to: "9780439023481"))
                == SaveSummary(created: 1)
        )
        #expect(
            try await t.library.save(BookData.books(recs), from: .recommendation("2025-02-03"))
                == SaveSummary(created: 1)
        )
        #expect(
            try await t.library.save(BookData.books(v2), from: .semantic("wizard school")) == SaveSummary(created: 1)
        )
        #expect(BookData.books(batch).count == 1)
        #expect(try await t.library.save(BookData.books(batch), from: .enrichment("batch")) == SaveSummary(updated: 1))
        guard case .one(let dune) = try await t.library.find("9780441172719") else {
            Issue.record("Dune missing")
            return
        }
        #expect(dune.data.publisher == "Ace")
        #expect(dune.data.originalYear == 1965)
        #expect(dune.data.subjects == ["science fiction"])
        #expect(dune.provenance == [.recommendation("2025-02-03"), .enrichment("batch")])
    }

    @Test func importJobMergesServerBooksWithTheFilesColumns() async throws {
        let t = try TempLibrary("job")
        defer { t.cleanup() }
        let rows = try ExportReader.read(try Fixture.data("goodreads_library_export.csv")).books
        // The stand-in server's answer shape: catalog data, no user columns; Piranesi unmatched.
        let results = ImportResults(
            booksCreated: 2,
            booksUpdated: 0,
            duplicatesSkipped: 0,
            enrichmentSucceeded: 2,
            enrichmentFailed: 1,
            errors: [ImportRowError(row: 4, isbn: "", error: "no match")],
            books: [
                Book(
                    isbn: "9780439023481",
                    isbn13: "9780439023481",
                    title: "The Hunger Games (The Hunger Games, #1)",
                    authors: ["Suzanne Collins"],
                    coverUrl: "https://images.gr-assets.com/books/1447303603m/2767052.jpg"
                ),
                Book(
                    isbn: "9780316769488",
                    isbn13: "9780316769488",
                    title: "The Catcher in the Rye",
                    authors: ["J.D. Salinger"]
                ),
            ]
        )
        let s = try await t.library.importJob(results, jobID: "job-1", rows: rows)
        // Every server book came from one of the file's rows: one no row matches (a changed file)
        // is not added; the file's 10 rows are.
        #expect(s == SaveSummary(created: 10))
        #expect(try await t.library.find("9780316769488") == .none)
        guard case .one(let hunger) = try await t.library.find("9780439023481") else {
            Issue.record("missing")
            return
        }
        #expect(hunger.data.coverURL == "https://images.gr-assets.com/books/1447303603m/2767052.jpg")
        #expect(hunger.reading.rating == 5, "the file's column came along")
        #expect(hunger.provenance == [.importJob("job-1")])
        let again = try await t.library.importJob(results, jobID: "job-2", rows: rows)
        #expect(again == SaveSummary(alreadyThere: 10))
        // Without the file (a job of another session), the server's books are what is saved.
        let serverOnly = try await t.library.importJob(results, jobID: "job-3", rows: [])
        #expect(serverOnly == SaveSummary(created: 1, alreadyThere: 1))
    }

    @Test func untitledInputsAreSkipped() async throws {
        let t = try TempLibrary("skip")
        defer { t.cleanup() }
        let s = try await t.library.save([BookData(title: "  ", isbn: "9780439023481")], from: .manual)
        #expect(s == SaveSummary(skipped: 1))
    }
}
