import BooksTrackContract
import BooksTrackLibrary
import Testing

/// How a finished import's server books and the file's rows come together, without a library.
@Suite(.onWorkThreads) struct ImportJobMergeTests {
    static let dune = BookData(
        title: "Dune (Dune Chronicles #1)",
        authors: ["Frank Herbert"],
        isbn: "9780340839935",
        series: "Dune Chronicles",
        publishedYear: 1965
    )
    static let emma = BookData(title: "Emma", authors: ["Jane Austen"], isbn: "9780141439587", pageCount: 474)

    static func row(_ n: Int, _ data: BookData, rating: Double? = nil) -> ImportedBook {
        var reading = ReadingFields()
        reading.rating = rating
        return ImportedBook(row: n, data: data, reading: reading)
    }

    static func match(_ row: Int, csv: String, matched: BookData, isbn: String? = nil) -> ImportMatch {
        ImportMatch(
            row: row,
            csvTitle: csv,
            matchedTitle: matched.title,
            matchedAuthors: matched.authors,
            isbn: isbn ?? matched.isbn13,
            matchedBy: .title
        )
    }

    @Test func aRowWithoutAnISBNBecomesTheBookItWasMatchedTo() {
        let rows = [Self.row(2, BookData(title: "Dun", authors: ["Frank Herbert"]), rating: 4)]
        let out = ImportJobMerge.combine(
            [Self.dune],
            rows: rows,
            matches: [Self.match(2, csv: "Dun", matched: Self.dune)]
        )
        #expect(out.count == 1)
        #expect(out[0].data.isbn13 == "9780340839935")
        #expect(out[0].data.title == Self.dune.title)
        #expect(out[0].data.series == "Dune Chronicles")
        #expect(out[0].reading.rating == 4, "the user's fields stay the row's")
        #expect(out[0].sources == [.csvTitle("Dun")])
    }

    @Test func aRowWithItsOwnISBNKeepsItAndItsTitle() {
        let own = BookData(title: "Dune", authors: ["Frank Herbert"], isbn: "9781234567897")
        let out = ImportJobMerge.combine(
            [Self.dune],
            rows: [Self.row(1, own)],
            matches: [Self.match(1, csv: "Dune", matched: Self.dune)]
        )
        #expect(out.map(\.data.isbn13) == ["9781234567897"])
        #expect(out[0].data.title == "Dune")
        #expect(out[0].data.publishedYear == 1965, "the book fills what the row lacks")
        #expect(out[0].sources.isEmpty)
    }

    @Test func aMatchForAnotherRowIsIgnored() {
        // The file changed since the upload: row 1's title is not the match's.
        let out = ImportJobMerge.combine(
            [Self.dune],
            rows: [Self.row(1, BookData(title: "Middlemarch", authors: ["George Eliot"]))],
            matches: [Self.match(1, csv: "Dun", matched: Self.dune)]
        )
        #expect(out.map(\.data.title) == ["Middlemarch"])
        #expect(out[0].data.isbn13 == nil)
    }

    @Test func otherRowsMatchByISBNElseByTitleAndAuthor() {
        let byISBN = BookData(title: "Emma", authors: ["Austen"], isbn: "0141439580")
        let byTitle = BookData(title: "Emma", authors: ["Jane Austen"])
        let out = ImportJobMerge.combine([Self.emma], rows: [Self.row(1, byISBN), Self.row(2, byTitle)])
        #expect(out.count == 2, "with rows, server books are never added as rows of their own")
        #expect(out.allSatisfy { $0.data.pageCount == 474 })
        #expect(out[1].data.isbn13 == Self.emma.isbn13, "a row without an ISBN adopts the server's")
        #expect(out[1].data.isbn10 == Self.emma.isbn10)
    }

    @Test func withoutRowsTheServerBooksAreToReadRows() {
        let out = ImportJobMerge.combine([Self.dune, Self.emma], rows: [])
        #expect(out.map(\.row) == [0, 0])
        #expect(out.map(\.data) == [Self.dune, Self.emma])
        #expect(out.allSatisfy { $0.reading == ReadingFields() })
    }

    @Test func csvTitlesAreTheTitlesOfRowsMatchedToTheBook() {
        let matches = [
            Self.match(1, csv: "Dun", matched: Self.dune),
            Self.match(2, csv: Self.dune.title, matched: Self.dune),
            Self.match(3, csv: "Emma!", matched: Self.emma),
            ImportMatch(
                row: 4,
                csvTitle: "Dune?",
                matchedTitle: Self.dune.title,
                matchedAuthors: [],
                isbn: nil,
                matchedBy: .title
            ),
        ]
        #expect(ImportJobMerge.csvTitles(of: Self.dune, in: matches) == [.csvTitle("Dun"), .csvTitle("Dune?")])
        #expect(ImportJobMerge.csvTitles(of: Self.emma, in: matches) == [.csvTitle("Emma!")])
    }
}
