import BooksTrackContract
import BooksTrackLibrary
import Foundation
import Testing

/// Listing, search, find, edit, remove, membership and stats on the Goodreads fixture.
@Suite(.onWorkThreads) struct QueryTests {
    static func loaded(_ name: String) async throws -> TempLibrary {
        let t = try TempLibrary(name)
        let file = try ExportReader.read(try Fixture.data("goodreads_library_export.csv"))
        _ = try await t.library.importBooks(file.books, from: .importFile("gr.csv"))
        return t
    }

    @Test func listFiltersAndSorts() async throws {
        let t = try await Self.loaded("list")
        defer { t.cleanup() }
        let lib = t.library
        #expect(try await lib.list(LibraryFilter(shelf: .read)).count == 5)
        #expect(try await lib.list(LibraryFilter(shelf: .toRead)).count == 3)
        #expect(
            try await lib.list(LibraryFilter(author: "tolkien")).map(\.title) == [
                "The Fellowship of the Ring (The Lord of the Rings, #1)"
            ]
        )
        #expect(try await lib.list(LibraryFilter(author: "Marquez")).count == 1, "accents ignored")
        #expect(try await lib.list(LibraryFilter(author: "grandpre")).count == 1, "any author of the book")
        #expect(try await lib.list(LibraryFilter(rating: .exactly(5))).count == 3)
        #expect(try await lib.list(LibraryFilter(rating: .atLeast(4))).count == 5)
        #expect(try await lib.list(LibraryFilter(rating: .unrated)).count == 4)
        #expect(
            try await lib.list(LibraryFilter(yearRead: 2019)).map(\.title) == [
                "The Hunger Games (The Hunger Games, #1)"
            ]
        )
        #expect(try await lib.list(LibraryFilter(tag: "Favorites")).count == 2)
        #expect(try await lib.count(LibraryFilter(shelf: .read, rating: .exactly(5))) == 3)

        let byTitle = try await lib.list(sort: LibrarySort(.title)).map(\.title)
        #expect(byTitle.first == "1984")
        #expect(byTitle == byTitle.sorted { $0.lowercased() < $1.lowercased() })
        let byRead = try await lib.list(LibraryFilter(shelf: .read), sort: LibrarySort(.dateRead)).map(\.title)
        #expect(byRead.first == "Cien años de soledad")
        #expect(byRead.last == "1984", "undated last")
        let byRating = try await lib.list(sort: LibrarySort(.rating)).compactMap(\.reading.rating)
        #expect(byRating == [5, 5, 5, 4, 4, 2])
        let byAuthor = try await lib.list(sort: LibrarySort(.author)).compactMap(\.authors.first)
        #expect(byAuthor.first == "David Foster Wallace")
        let byYear = try await lib.list(sort: LibrarySort(.year, descending: false)).map(\.title)
        #expect(byYear.first == "1984")
        #expect(try await lib.list(limit: 3, offset: 8).count == 2)
    }

    @Test func fullTextSearchCoversTitleAuthorsSeriesNotesAndTags() async throws {
        let t = try await Self.loaded("fts")
        defer { t.cleanup() }
        let lib = t.library
        #expect(try await lib.search("hunger").count == 2)
        #expect(
            try await lib.search("lord of the rings").map(\.title) == [
                "The Fellowship of the Ring (The Lord of the Rings, #1)"
            ]
        )
        #expect(try await lib.search("footnotes").map(\.title) == ["Infinite Jest"], "review")
        #expect(try await lib.search("spanish").map(\.title) == ["Cien años de soledad"], "private notes")
        #expect(try await lib.search("dystopia").count == 1, "tags")
        #expect(try await lib.search("harar").map(\.title) == ["Sapiens: A Brief History of Humankind"], "prefix")
        #expect(try await lib.search("soledad marquez").count == 1)
        #expect(try await lib.search("\"unbalanced* OR (").isEmpty, "FTS syntax is taken literally")
        #expect(try await lib.search("  ").isEmpty)
        #expect(try await lib.search("hunger", filter: LibraryFilter(shelf: .toRead)).count == 1)
    }

    @Test func findEditRemove() async throws {
        let t = try await Self.loaded("edit")
        defer { t.cleanup() }
        let lib = t.library
        guard case .ambiguous(let two) = try await lib.find("hunger games") else {
            Issue.record("two editions should be ambiguous")
            return
        }
        #expect(two.count == 2)
        #expect(try await lib.find("no such book at all") == .none)
        guard case .one(let dune) = try await lib.find("dune") else {
            Issue.record("dune")
            return
        }
        #expect(try await lib.find("#\(dune.id)") == .one(dune))

        let updated = try await lib.update(
            id: dune.id,
            ReadingChange(
                shelf: .read,
                rating: .set(4.5),
                dateRead: .set(BookDate(year: 2025, month: 1, day: 31)!),
                review: .set("Spice must flow"),
                addTags: ["Sci Fi", "classics"]
            )
        )
        #expect(updated.reading.shelf == .read)
        #expect(updated.reading.rating == 4.5)
        #expect(updated.reading.tags == ["sci-fi", "classics"])
        #expect(updated.reading.dateAdded == BookDate(year: 2023, month: 6, day: 14), "kept")
        #expect(try await lib.search("spice").map(\.id) == [dune.id], "the index follows edits")
        let cleared = try await lib.update(
            id: dune.id,
            ReadingChange(rating: .clear, review: .clear, removeTags: ["sci-fi"])
        )
        #expect(cleared.reading.rating == nil)
        #expect(cleared.reading.tags == ["classics"])
        #expect(try await lib.search("spice").isEmpty)
        await #expect(throws: LibraryError.self) { try await lib.update(id: dune.id, ReadingChange(rating: .set(6))) }
        await #expect(throws: LibraryError.self) { try await lib.update(id: 999_999, ReadingChange(shelf: .read)) }

        // Removing one edition keeps the work; removing the last one removes work and author.
        guard case .ambiguous(let editions) = try await lib.find("hunger games") else { return }
        #expect(try await lib.remove(id: editions[0].id))
        #expect(try await lib.stats().works == 9)
        #expect(try await lib.remove(id: editions[1].id))
        #expect(try await lib.remove(id: editions[1].id) == false)
        let stats = try await lib.stats()
        #expect(stats.books == 8)
        #expect(stats.works == 8)
        #expect(try await lib.list(LibraryFilter(author: "collins")).isEmpty)
        #expect(try await lib.search("hunger").isEmpty)
    }

    @Test func holdingsAnswerForAnyISBNForm() async throws {
        let t = try await Self.loaded("holdings")
        defer { t.cleanup() }
        let asked = ["9780439023481", "0441172717", "978-0-06-231609-7", "9780316769488", "not an isbn", ""]
        let held = try await t.library.holdings(of: asked)
        #expect(held == ["9780439023481", "0441172717", "978-0-06-231609-7"])
        #expect(try await t.library.holdings(of: []).isEmpty)
    }

    @Test func statsAndShelves() async throws {
        let t = try await Self.loaded("stats")
        defer { t.cleanup() }
        let stats = try await t.library.stats()
        #expect(stats.books == 10)
        #expect(stats.authors == 10)
        #expect(stats.readPerYear == [.init("2018", 1), .init("2019", 1), .init("2020", 1), .init("2021", 1)])
        #expect(stats.readUndated == 1)
        #expect(stats.ratings.map(\.count) == [0, 1, 0, 2, 3])
        #expect(stats.unrated == 4)
        #expect(stats.pagesRead == 374 + 309 + 417 + 328 + 398)
        let shelves = try await t.library.shelves()
        #expect(shelves.map(\.shelf) == [.toRead, .currentlyReading, .read, .didNotFinish, .paused])
        #expect(shelves.map(\.count) == [3, 1, 5, 1, 0])
        #expect(try await t.library.tags().first?.tag == "classics")
        let handles = try await t.library.handles(prefix: "the ")
        #expect(handles.count == 3)
        #expect(try await t.library.handles(prefix: "978044117").map(\.title) == ["Dune"])
        #expect(try await t.library.handles(prefix: "%").isEmpty, "LIKE wildcards are literal")
    }
}
