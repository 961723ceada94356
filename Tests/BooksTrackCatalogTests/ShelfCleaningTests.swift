import Foundation
import Testing

@testable import BooksTrackCatalog

/// `ShelfCleaner` and `ShelfNames` on small hand-made CSVs (the quirks of goodbooks-10k's tags).
@Suite(.onWorkThreads) struct ShelfCleaningTests {
    @Test func genericShelvesAreDroppedByRule() {
        for name in [
            "to-read", "currently-reading", "read", "dnf", "default", "owned", "books-i-own", "my-library",
            "wish-list", "kindle", "ebook", "audiobook", "favorites", "all-time-favourites", "5-stars",
            "five-stars", "read-in-2016", "2015-reads", "to-read-again",
        ] {
            #expect(ShelfNames.isGeneric(ShelfNames.normalized(name)), "\(name)")
        }
        for name in ["fantasy", "science-fiction", "dystopian", "fiction", "classics", "vampires", "gothic"] {
            #expect(!ShelfNames.isGeneric(ShelfNames.normalized(name)), "\(name)")
        }
        // Width, case and diacritics do not hide a generic shelf.
        #expect(ShelfNames.classify("Ｆａｖｏｒｉｔｅｓ") == nil)
    }

    @Test func spellingVariantsMerge() {
        #expect(ShelfNames.classify("sci-fi")?.key == ShelfNames.classify("science_fiction")?.key)
        #expect(ShelfNames.classify("SciFi")?.shown == "science-fiction")
        #expect(ShelfNames.classify("non-fiction")?.key == ShelfNames.classify("nonfiction")?.key)
        #expect(ShelfNames.classify("clàssics")?.key == ShelfNames.classify("classics")?.key)
        #expect(ShelfNames.classify("distopia")?.shown == "dystopian")
        #expect(ShelfNames.classify("fantasy")?.key != ShelfNames.classify("science-fiction")?.key)
    }

    /// Five books; duplicates, a -1 count, variants, a plural, a shelf on every book, one on a single book.
    static let books = """
        book_id,goodreads_book_id,best_book_id,work_id,title
        1,101,101,1,One
        2,102,102,2,Two
        3,103,103,3,Three
        4,104,104,4,Four
        5,105,105,5,Five

        """
    static let tags = """
        tag_id,tag_name
        0,to-read
        1,sci-fi
        2,scifi
        3,vampire
        4,vampires
        5,fiction
        6,unique-shelf
        7,fantasy
        8,romance
        9,the-three

        """
    static let bookTags = """
        goodreads_book_id,tag_id,count
        101,0,900
        101,1,50
        101,2,30
        101,5,10
        101,6,99
        101,8,2
        101,8,2
        102,1,40
        102,5,10
        102,7,-1
        102,3,20
        102,3,25
        103,4,60
        103,5,10
        103,7,70
        103,9,40
        104,3,5
        104,5,10
        104,7,8
        104,8,3
        105,5,10
        105,8,30
        999,7,10

        """

    @Test func cleaningFollowsTheRules() throws {
        let (table, report) = try ShelfCleaner.clean(
            books: Data(Self.books.utf8),
            tags: Data(Self.tags.utf8),
            bookTags: Data(Self.bookTags.utf8)
        )
        #expect(report.rows == 23)
        #expect(report.ownNameRows == 1, "the-three on the book titled Three")
        #expect(report.duplicatePairs == 2)
        #expect(report.negativeCounts == 1)
        #expect(report.unknownBooks == 1)
        #expect(report.genericRows == 1)
        let names = { (id: Int) in (table.books[id] ?? []).map { table.names[$0.shelf] } }
        // to-read dropped; sci-fi + scifi one shelf (50 + 30); fiction on every book weighs 0; unique-shelf
        // is on one book only.
        #expect(names(1) == ["science-fiction", "romance"])
        let one = try #require(table.books[1]?.first)
        let idf = log(5.0 / 2.0)
        #expect(one.weight == Int((100 * log1p(80.0) * idf).rounded()))
        // The duplicate pair keeps its larger count (25); vampire and vampires are one shelf, shown
        // in the spelling readers used most (vampires: 60 against 30).
        #expect(Set(names(2)) == ["science-fiction", "vampires"])
        #expect(Set(names(3)) == ["vampires", "fantasy"])
        #expect(
            !table.names.contains("fiction") && !table.names.contains("to-read")
                && !table.names.contains("unique-shelf")
        )
        // The resource round-trips.
        let text = ShelfResourceTSV.encode(table)
        #expect(try ShelfResourceTSV.decode(data: Data(text.utf8)) == table)
        #expect(throws: ShelfResourceTSV.DecodeError.badHeader) { try ShelfResourceTSV.decode(data: Data("x\n".utf8)) }
    }

    /// The bundled resource is what the catalog is built with: every book has shelves, shown on the book.
    @Test func bundledShelvesAreInTheCatalog() throws {
        let table = try ShelfResourceTSV.decode(data: try SQLiteCatalog.bundledResource("shelves"))
        #expect(table.books.count >= 9_990)
        #expect(table.books.values.allSatisfy { $0.count <= ShelfCleaner.perBook })
        for generic in ["to-read", "favorites", "owned", "kindle", "currently-reading"] {
            #expect(!table.names.contains(generic), "\(generic)")
        }
        let catalog = try SharedCatalog.get()
        let hungerGames = try #require(try catalog.book(isbn13: "9780439023481"))
        #expect(hungerGames.shelves.count == SQLiteCatalog.shownShelves)
        #expect(hungerGames.shelves.contains("dystopian"))
    }
}
