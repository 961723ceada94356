import Foundation
import Testing

@testable import BooksTrackCatalog

/// Which books hold another (`SQLiteCatalog.collects`), on books made here: no catalog needed.
struct CollectionsTests {
    static func book(_ title: String, _ author: String, id: Int = 1) -> CatalogBook {
        let series = CatalogFieldCleaning.series(inTitle: title).series
        return CatalogBook(
            id: id,
            goodreadsBookID: id,
            goodreadsWorkID: id,
            isbn10: nil,
            isbn13: nil,
            title: title,
            originalTitle: nil,
            series: series?.name,
            seriesNumber: series?.number,
            authors: [author],
            year: nil,
            language: nil,
            averageRating: 4,
            ratingsCount: 1,
            imageURL: nil,
            smallImageURL: nil
        )
    }

    @Test func aSeriesSpanIsARange() {
        #expect(SQLiteCatalog.seriesSpan(inTitle: "The Hunger Games Trilogy Boxset (The Hunger Games, #1-3)") == 1...3)
        #expect(SQLiteCatalog.seriesSpan(inTitle: "A Song of Ice and Fire (A Song of Ice and Fire, #1 - 4)") == 1...4)
        #expect(SQLiteCatalog.seriesSpan(inTitle: "Catching Fire (The Hunger Games, #2)") == nil)
        #expect(SQLiteCatalog.seriesSpan(inTitle: "Odd (Series, #3-1)") == nil)
        #expect(SQLiteCatalog.seriesSpan(inTitle: "1984") == nil)
        #expect(SQLiteCatalog.seriesSpan(inTitle: "(#1-2") == nil)
    }

    @Test func setsThatHoldTheSourceAreCollections() {
        let thrones = Self.book("A Game of Thrones (A Song of Ice and Fire, #1)", "George R.R. Martin")
        #expect(
            SQLiteCatalog.collects(
                Self.book("A Song of Ice and Fire (A Song of Ice and Fire, #1-4)", "George R.R. Martin"),
                thrones
            )
        )
        #expect(
            SQLiteCatalog.collects(
                Self.book("A Game of Thrones / A Clash of Kings (A Song of Ice and Fire, #1-2)", "George R.R. Martin"),
                thrones
            )
        )
        let hobbit = Self.book("The Hobbit", "J.R.R. Tolkien")
        #expect(
            SQLiteCatalog.collects(
                Self.book("J.R.R. Tolkien 4-Book Boxed Set: The Hobbit and The Lord of the Rings", "J.R.R. Tolkien"),
                hobbit
            )
        )
        #expect(
            SQLiteCatalog.collects(Self.book("Animal Farm / 1984", "George Orwell"), Self.book("1984", "George Orwell"))
        )
    }

    @Test func neighboursThatDoNotHoldTheSourceAreNot() {
        let thrones = Self.book("A Game of Thrones (A Song of Ice and Fire, #1)", "George R.R. Martin")
        // A later span of the same series, a sequel, another series' set, a single book by the author.
        #expect(
            !SQLiteCatalog.collects(Self.book("Boxed (A Song of Ice and Fire, #4-5)", "George R.R. Martin"), thrones)
        )
        #expect(
            !SQLiteCatalog.collects(
                Self.book("A Clash of Kings (A Song of Ice and Fire, #2)", "George R.R. Martin"),
                thrones
            )
        )
        #expect(
            !SQLiteCatalog.collects(
                Self.book("A Knight of the Seven Kingdoms (The Tales of Dunk and Egg, #1-3)", "George R.R. Martin"),
                thrones
            )
        )
        let hobbit = Self.book("The Hobbit", "J.R.R. Tolkien")
        #expect(!SQLiteCatalog.collects(Self.book("The Silmarillion", "J.R.R. Tolkien"), hobbit))
        // The title named by another author's set, and a title that only contains the words without a set word.
        #expect(!SQLiteCatalog.collects(Self.book("The Hobbit Boxed Set: A Companion", "Someone Else"), hobbit))
        #expect(
            !SQLiteCatalog.collects(
                Self.book("Dune Messiah (Dune Chronicles, #2)", "Frank Herbert"),
                Self.book("Dune (Dune Chronicles, #1)", "Frank Herbert")
            )
        )
        #expect(
            !SQLiteCatalog.collects(Self.book("Brave New World", "Aldous Huxley"), Self.book("1984", "George Orwell"))
        )
    }
}
