import BooksTrackContract
import BooksTrackLibrary
import Foundation
import Testing

/// Real files: export → library → Goodreads CSV → a fresh library gives the same books.
@Suite(.onWorkThreads) struct RoundTripTests {
    @Test func goodreadsExportRoundTrips() async throws {
        let file = try ExportReader.read(try Fixture.data("goodreads_library_export.csv"))
        #expect(file.format == .goodreads)
        #expect(file.books.count == 10)
        #expect(file.problems.isEmpty, "\(file.problems)")

        let a = try TempLibrary("gr-a")
        defer { a.cleanup() }
        let first = try await a.library.importBooks(file.books, from: .importFile("goodreads_library_export.csv"))
        #expect(first == SaveSummary(created: 10))
        let again = try await a.library.importBooks(file.books, from: .importFile("goodreads_library_export.csv"))
        #expect(again == SaveSummary(alreadyThere: 10))
        #expect(try await a.library.count() == 10)
        #expect(try await a.library.stats().works == 9, "two editions of The Hunger Games are one work")

        let csv = try await a.library.exportGoodreads()
        let back = try ExportReader.read(csv)
        #expect(back.format == .goodreads)
        #expect(back.problems.isEmpty, "\(back.problems)")
        let b = try TempLibrary("gr-b")
        defer { b.cleanup() }
        #expect(
            try await b.library.importBooks(back.books, from: .importFile("export.csv")) == SaveSummary(created: 10)
        )

        let booksA = try await a.library.list()
        let booksB = try await b.library.list()
        #expect(Set(booksA.map { Essentials($0) }) == Set(booksB.map { Essentials($0) }))
        #expect(Set(booksA.map(\.data)) == Set(booksB.map(\.data)), "data columns survive too")
        // Re-importing our own export into the first library changes nothing.
        #expect(
            try await a.library.importBooks(back.books, from: .importFile("export.csv"))
                == SaveSummary(alreadyThere: 10)
        )
    }

    @Test func goodreadsColumnsAreCarried() async throws {
        let t = try TempLibrary("gr-cols")
        defer { t.cleanup() }
        let file = try ExportReader.read(try Fixture.data("goodreads_library_export.csv"))
        _ = try await t.library.importBooks(file.books, from: .importFile("gr.csv"))

        guard case .one(let hunger) = try await t.library.find("9780439023481") else {
            Issue.record("Hunger Games not found by ISBN-13")
            return
        }
        #expect(hunger.reading.shelf == .read)
        #expect(hunger.reading.rating == 5)
        #expect(hunger.reading.tags == ["dystopia", "favorites"])
        #expect(hunger.reading.dateRead == BookDate(year: 2019, month: 3, day: 2))
        #expect(hunger.reading.dateAdded == BookDate(year: 2019, month: 1, day: 10))
        #expect(hunger.reading.readCount == 2)
        #expect(hunger.reading.ownedCopies == 1)
        #expect(hunger.reading.review == "Couldn't put it down, read it in a weekend. Katniss is \"the girl on fire\".")
        #expect(hunger.data.series == "The Hunger Games")
        #expect(hunger.data.seriesNumber == 1)
        #expect(hunger.editionsOfWork == 2)
        #expect(try await t.library.find("0439023483") == .one(hunger), "ISBN-10 finds the same book")

        guard case .one(let hp) = try await t.library.find("9780439554930") else {
            Issue.record("HP not found")
            return
        }
        #expect(hp.authors == ["J.K. Rowling", "Mary GrandPré"])
        guard case .one(let dune) = try await t.library.find("Dune") else {
            Issue.record("Dune not found by title")
            return
        }
        #expect(dune.reading.rating == nil, "My Rating 0 is unrated")
        #expect(dune.reading.shelf == .toRead)
        #expect(dune.reading.tags.isEmpty, "the exclusive shelf is not a tag")
        guard case .one(let piranesi) = try await t.library.find("piranesi") else {
            Issue.record("Piranesi not found")
            return
        }
        #expect(piranesi.isbn13 == nil)
        #expect(piranesi.key == "title:piranesi|susannaclarke")
        #expect(piranesi.reading.shelf == .currentlyReading)
        guard case .one(let jest) = try await t.library.find("infinite jest") else {
            Issue.record("Infinite Jest not found")
            return
        }
        #expect(jest.reading.shelf == .didNotFinish)
        #expect(jest.reading.review == "Gave up at page 300.\nThe footnotes won.")
        #expect(jest.reading.privateNotes == "Maybe try again in summer")
        #expect(jest.data.publisher == "Little, Brown and Company")
        guard case .one(let cien) = try await t.library.find("cien anos") else {
            Issue.record("diacritics: 'cien anos' should find Cien años de soledad")
            return
        }
        #expect(cien.authors == ["Gabriel García Márquez"])
        #expect(cien.reading.tags == ["classics", "en-español"])
    }

    @Test func storyGraphExportRoundTrips() async throws {
        let file = try ExportReader.read(try Fixture.data("storygraph_export.csv"))
        #expect(file.format == .storyGraph)
        #expect(file.books.count == 8)
        #expect(file.problems.isEmpty, "\(file.problems)")

        let a = try TempLibrary("sg-a")
        defer { a.cleanup() }
        #expect(try await a.library.importBooks(file.books, from: .importFile("sg.csv")) == SaveSummary(created: 8))
        #expect(
            try await a.library.importBooks(file.books, from: .importFile("sg.csv")) == SaveSummary(alreadyThere: 8)
        )

        let books = try await a.library.list()
        func book(_ title: String) -> LibraryBook? { books.first { $0.title.hasPrefix(title) } }
        #expect(book("Good Omens")?.authors == ["Terry Pratchett", "Neil Gaiman"])
        #expect(book("Good Omens")?.reading.rating == 4.5)
        #expect(book("Good Omens")?.reading.tags == ["humour", "buddy-read"])
        #expect(book("Good Omens")?.reading.ownedCopies == 1)
        #expect(book("Project Hail Mary")?.data.asin == "B08FHBV4ZX")
        #expect(book("Project Hail Mary")?.isbn13 == nil)
        #expect(book("The Priory")?.reading.shelf == .didNotFinish)
        #expect(book("Klara")?.reading.shelf == .paused)
        #expect(book("Piranesi")?.reading.shelf == .currentlyReading)
        #expect(book("Mexican Gothic")?.reading.shelf == .toRead)
        #expect(book("The Left Hand")?.reading.dateRead == BookDate(year: 2023, month: 8, day: 9))
        #expect(book("The Left Hand")?.reading.readCount == 2)
        #expect(book("The Left Hand")?.reading.rating == 4.25)
        #expect(book("Kindred")?.isbn13 == ISBN("0807083054")?.isbn13)

        let csv = try await a.library.exportGoodreads()
        let back = try ExportReader.read(csv)
        #expect(back.problems.isEmpty, "\(back.problems)")
        let b = try TempLibrary("sg-b")
        defer { b.cleanup() }
        #expect(try await b.library.importBooks(back.books, from: .importFile("export.csv")) == SaveSummary(created: 8))
        let booksB = try await b.library.list()
        // Goodreads ratings are whole stars: 4.5 and 4.25 come back rounded; everything else is exact.
        #expect(Set(books.map { Essentials($0, roundRating: true) }) == Set(booksB.map { Essentials($0) }))
        let whole = books.filter { $0.reading.rating.map { $0 == $0.rounded() } ?? true }
        #expect(whole.count == 6)
        #expect(Set(whole.map { Essentials($0) }).isSubset(of: Set(booksB.map { Essentials($0) })))
        // The ASIN-only book is found again by title and author.
        #expect(booksB.contains { $0.key == book("Project Hail Mary")?.key })
    }

    @Test func exportIsWrittenAsGoodreadsWritesIt() async throws {
        let t = try TempLibrary("gr-format")
        defer { t.cleanup() }
        let original = String(decoding: try Fixture.data("goodreads_library_export.csv"), as: UTF8.self)
        _ = try await t.library.importBooks(try ExportReader.read(original).books, from: .importFile("gr.csv"))
        let csv = try await t.library.exportGoodreads()
        let lines = csv.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first.map(String.init) == original.split(separator: "\n").first.map(String.init))
        #expect(csv.hasSuffix("\n"))
        // Same cells and quoting as the original line (favorites is #2 here: HP was added first).
        #expect(
            csv.contains(
                "\n2767052,\"The Hunger Games (The Hunger Games, #1)\",Suzanne Collins,\"Collins, Suzanne\",,\"=\"\"0439023483\"\"\",\"=\"\"9780439023481\"\"\",5,4.33,Scholastic Press,Hardcover,374,2008,2008,2019/03/02,2019/01/10,\"dystopia, favorites\",\"dystopia (#1), favorites (#2)\",read,\"Couldn't put it down, read it in a weekend. Katniss is \"\"the girl on fire\"\".\",,,2,1\n"
            )
        )
        #expect(
            csv.contains(
                "\n50202953,Piranesi,Susanna Clarke,\"Clarke, Susanna\",,\"=\"\"\"\"\",\"=\"\"\"\"\",0,4.22,Bloomsbury Publishing,Kindle Edition,245,2020,2020,,2024/01/03,currently-reading,currently-reading (#1),currently-reading,,,,1,0\n"
            )
        )
        // Oldest addition first.
        #expect(lines[1].hasPrefix("5470,1984,"))
    }
}
