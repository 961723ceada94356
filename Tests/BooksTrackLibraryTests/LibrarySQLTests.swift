import BooksTrackLibrary
import GRDB
import Testing

/// The SQL of a listing, built from a filter and a sort without a database.
@Suite(.onWorkThreads) struct LibrarySQLTests {
    static let base = "SELECT e.id FROM edition e JOIN reading r ON r.editionId = e.id JOIN work w ON w.id = e.workId"

    @Test func noFilterListsEverythingNewestFirst() throws {
        let query = try #require(LibrarySQL.select(LibraryFilter()))
        #expect(query.sql == Self.base + " ORDER BY r.dateAdded DESC, e.id DESC")
        #expect(query.arguments.isEmpty)
        let oldest = try #require(LibrarySQL.select(LibraryFilter(), sort: LibrarySort(.dateAdded, descending: false)))
        #expect(oldest.sql.hasSuffix(" ORDER BY r.dateAdded ASC, e.id ASC"))
    }

    @Test func conditionsAndTheirArgumentsComeInOneOrder() throws {
        let filter = LibraryFilter(
            shelf: .read,
            author: "J.K. Rowling",
            rating: .atLeast(4),
            yearRead: 2024,
            tag: "Fav"
        )
        let query = try #require(LibrarySQL.select(filter, sort: LibrarySort(.title)))
        #expect(query.sql.hasPrefix(Self.base + " WHERE r.shelf = ? AND e.workId IN ("))
        #expect(query.sql.contains("AND r.rating >= ? AND r.dateRead >= ? AND r.dateRead < ? AND EXISTS ("))
        #expect(query.sql.hasSuffix(" ORDER BY e.title COLLATE NOCASE ASC, e.id"))
        #expect(
            query.arguments == [
                "read".databaseValue, "jkrowling".databaseValue, Double(4).databaseValue, "2024".databaseValue,
                "2025".databaseValue, Shelf(rawValue: "Fav").rawValue.databaseValue,
            ]
        )
    }

    @Test func ratingFilters() throws {
        let exactly = try #require(LibrarySQL.select(LibraryFilter(rating: .exactly(3.5))))
        #expect(exactly.sql.contains(" WHERE r.rating = ? ORDER BY"))
        #expect(exactly.arguments == [Double(3.5).databaseValue])
        let unrated = try #require(LibrarySQL.select(LibraryFilter(rating: .unrated)))
        #expect(unrated.sql.contains(" WHERE r.rating IS NULL ORDER BY"))
        #expect(unrated.arguments.isEmpty)
    }

    @Test func textJoinsTheIndexAndOrdersByRelevance() throws {
        let query = try #require(LibrarySQL.select(LibraryFilter(text: "dune"), sort: .relevance))
        #expect(query.sql.contains(" JOIN library_fts ON library_fts.rowid = e.id WHERE library_fts MATCH ?"))
        #expect(query.sql.hasSuffix(" ORDER BY \(LibrarySQL.bm25), e.id"))
        #expect(query.arguments.count == 1)
        // Without text, relevance is date added.
        let plain = try #require(LibrarySQL.select(LibraryFilter(), sort: .relevance))
        #expect(plain.sql.hasSuffix(" ORDER BY r.dateAdded ASC, e.id ASC"))
    }

    @Test func textWithoutWordsMatchesNothing() {
        #expect(LibrarySQL.select(LibraryFilter(text: "  -- ")) == nil)
        #expect(LibrarySQL.select(LibraryFilter(shelf: .read, text: "*")) == nil)
    }

    @Test func everySortKeyOrdersToATieBreak() throws {
        for key in LibrarySort.Key.allCases {
            for descending in [false, true] {
                let query = try #require(
                    LibrarySQL.select(LibraryFilter(), sort: LibrarySort(key, descending: descending))
                )
                #expect(
                    query.sql.hasSuffix("e.id") || query.sql.hasSuffix("e.id DESC") || query.sql.hasSuffix("e.id ASC")
                )
                if key != .relevance, key != .dateAdded {
                    #expect(query.sql.contains(descending ? " DESC" : " ASC"), "\(key)")
                }
            }
        }
    }

    @Test func onlyTextAloneByRelevanceUsesTheIndexAlone() {
        #expect(LibrarySQL.isTextOnly(LibraryFilter(text: "dune"), sort: .relevance))
        #expect(!LibrarySQL.isTextOnly(LibraryFilter(text: "dune"), sort: .newestFirst))
        #expect(!LibrarySQL.isTextOnly(LibraryFilter(shelf: .read, text: "dune"), sort: .relevance))
        #expect(!LibrarySQL.isTextOnly(LibraryFilter(), sort: .relevance))
    }

    @Test func likePrefixEscapesItsWildcards() {
        #expect(LibrarySQL.likePrefix("dune") == "dune%")
        #expect(LibrarySQL.likePrefix("50%_a\\b") == "50\\%\\_a\\\\b%")
        #expect(LibrarySQL.likePrefix("") == "%")
    }
}
