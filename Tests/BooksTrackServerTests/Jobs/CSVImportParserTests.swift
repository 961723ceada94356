import BooksTrackContract
import BooksTrackSupport
import Foundation
import Testing

@testable import BooksTrackServer

@Suite("CSV import parser", .onWorkThreads)
struct CSVImportParserTests {
    static let goodreadsHeader =
        "Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies"

    func parse(_ text: String, maxRows: Int = 10_000) -> Result<CSVImportTable, CSVStructureError> {
        CSVImportParser.parse(Array(text.utf8), maxRows: maxRows)
    }

    func failure(_ text: String, maxRows: Int = 10_000) -> String? {
        if case .failure(let e) = parse(text, maxRows: maxRows) { return e.message }
        return nil
    }

    @Test func goodreadsRowIsUnwrapped() throws {
        let csv =
            Self.goodreadsHeader + "\n"
            + #"2767052,"The Hunger Games (The Hunger Games, #1)",Suzanne Collins,"Collins, Suzanne",,"=""0439023483""","=""9780439023481""",5,4.34,Scholastic Press,Hardcover,374,2008,2008,2020/01/02,2019/12/01,,,read,,,,1,0"#
            + "\n"
        let table = try parse(csv).get()
        #expect(table.rows.count == 1)
        let row = try #require(table.rows.first)
        #expect(row.row == 1)
        #expect(row.title == "The Hunger Games (The Hunger Games, #1)")
        #expect(row.author == "Suzanne Collins")
        #expect(row.isbn == "0439023483")
        #expect(row.isbn13 == "9780439023481")
        #expect(row.goodreadsBookID == "2767052")
        #expect(row.myRating == 5)
        #expect(row.publisher == "Scholastic Press")
        #expect(row.numberOfPages == 374)
        #expect(row.yearPublished == 2008)
        #expect(row.dateRead == "2020/01/02")
        #expect(row.exclusiveShelf == "read")
    }

    @Test func emptyGoodreadsISBNBecomesNil() throws {
        let csv = "Title,ISBN\nSome Book,\"=\"\"\"\"\"\n"
        let row = try #require(try parse(csv).get().rows.first)
        #expect(row.isbn == nil)
    }

    @Test func headersAreCaseInsensitiveAndAliased() throws {
        let table = try parse("BOOK TITLE,author name,Isbn13\nDune,Frank Herbert,9780441172719\n").get()
        #expect(table.columns[.title] == 0)
        #expect(table.columns[.author] == 1)
        #expect(table.columns[.isbn13] == 2)
    }

    @Test func blankRowsAreSkippedAndNotCounted() throws {
        let table = try parse("\n\nTitle,Author\n\nA,B\n,\n\nC,D\r\n").get()
        #expect(table.rows.map(\.row) == [1, 2])
        #expect(table.rows.map(\.title) == ["A", "C"])
    }

    @Test func quotedFieldsWithCommasNewlinesAndQuotes() throws {
        let table = try parse("Title,Author\n\"A, \"\"quoted\"\"\nbook\",X\n").get()
        #expect(table.rows.first?.title == "A, \"quoted\"\nbook")
    }

    @Test func byteOrderMarkIsIgnored() throws {
        let table = try parse("\u{FEFF}Title,Author\nA,B\n").get()
        #expect(table.columns[.title] == 0)
    }

    @Test func emptyFile() {
        #expect(failure("") == "the file is empty")
        #expect(failure("  \n\r\n ") == "the file is empty")
    }

    @Test func headerOnly() {
        #expect(failure("Title,Author\n") == "the file has a header row but no data rows")
        #expect(failure("Title,Author\n\n,\n") == "the file has a header row but no data rows")
    }

    @Test func unbalancedQuotes() {
        #expect(
            failure("Title,Author\nA,B\n\"Unclosed,C\nD,E\n")
                == "unbalanced quotes: the quoted field that starts on line 3 is never closed"
        )
    }

    @Test func closingQuoteFollowedByText() {
        #expect(
            failure("Title,Author\n\"A\"x,B\n")
                == "malformed quotes on line 2: a closing quote must be followed by a comma or the end of the line"
        )
    }

    @Test func tooManyRows() {
        var csv = "Title,Author\n"
        for i in 0..<11 { csv += "T\(i),A\n" }
        #expect(failure(csv, maxRows: 10) == "the file has 11 data rows; at most 10 can be imported at once")
        var big = "Title,Author\n"
        for i in 0..<10_001 { big += "T\(i),A\n" }
        #expect(failure(big) == "the file has 10,001 data rows; at most 10,000 can be imported at once")
    }

    @Test func exactlyTheRowLimitIsAccepted() throws {
        var csv = "Title,Author\n"
        for i in 0..<10 { csv += "T\(i),A\n" }
        #expect(try parse(csv, maxRows: 10).get().rows.count == 10)
    }

    /// A short or long row is that row's problem (a row error in the results), not the file's.
    @Test func inconsistentColumnCountsAreRowProblems() throws {
        let short = try parse("Title,Author,ISBN\nA,B,1\nC,D\n").get()
        #expect(short.rows.map(\.problem) == [nil, "the row has 2 fields but the header has 3"])
        #expect(short.rows[1].title == "C" && short.rows[1].row == 2)
        let long = try parse("Title,Author\nA,B,C,D\n").get()
        #expect(long.rows.first?.problem == "the row has 4 fields but the header has 2")
    }

    @Test func singleColumn() {
        #expect(
            failure("Title\nDune\n")
                == "the header row has only 1 column; an import needs at least 2 (for example Title and Author)"
        )
    }

    @Test func noTitleOrISBNColumn() {
        #expect(
            failure("Name,Writer\nDune,Herbert\n")
                == "no title or ISBN column: the header must name one of Title, Book Title, ISBN, ISBN13 or ISBN/UID (found 'Name', 'Writer')"
        )
    }

    @Test func notUTF8() {
        let bytes: [UInt8] = Array("Title,Author\n".utf8) + [0xC3, 0x28, 0x2C, 0x41, 0x0A]
        guard case .failure(let e) = CSVImportParser.parse(bytes, maxRows: 10) else {
            Issue.record("expected a failure")
            return
        }
        #expect(e.message == "the file is not UTF-8 text")
    }

    @Test func formulaUnwrapping() {
        #expect(CSVImportParser.unwrapFormula("=\"9780439023481\"") == "9780439023481")
        #expect(CSVImportParser.unwrapFormula(" = \"0439023483\" ") == "0439023483")
        #expect(CSVImportParser.unwrapFormula("=\"\"") == "")
        #expect(CSVImportParser.unwrapFormula("9780439023481") == "9780439023481")
    }

    @Test func grouping() {
        #expect(CSVImportParser.grouped(0) == "0")
        #expect(CSVImportParser.grouped(999) == "999")
        #expect(CSVImportParser.grouped(10_000) == "10,000")
        #expect(CSVImportParser.grouped(8_388_608) == "8,388,608")
    }

    /// Seeded random inputs: never a crash; a success always has rows numbered 1…n with a title or
    /// ISBN column; a failure always has a message.
    @Test func fuzz() {
        var rng = SplitMix64(seed: 0x5EED)
        let alphabet: [UInt8] = Array("ab,\"\n\r =Title,ISBN13\u{00E9}".utf8) + [0xFF, 0x00]
        for _ in 0..<2000 {
            let length = Int(rng.next() % 120)
            var bytes: [UInt8] = rng.next() % 2 == 0 ? Array("Title,ISBN\n".utf8) : []
            for _ in 0..<length { bytes.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            switch CSVImportParser.parse(bytes, maxRows: 50) {
            case .success(let table):
                #expect(!table.rows.isEmpty)
                #expect(table.rows.map(\.row) == Array(1...max(1, table.rows.count)))
                #expect(table.columns[.title] != nil || table.columns[.isbn] != nil || table.columns[.isbn13] != nil)
                #expect(table.headers.count >= 2)
            case .failure(let e):
                #expect(!e.message.isEmpty)
            }
        }
    }
}
