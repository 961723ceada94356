import BooksTrackContract
import Foundation
import Testing

@testable import BooksTrackServer

/// The StoryGraph export's columns: `ISBN/UID` holds an ISBN or an Amazon ASIN (not an ISBN: the
/// row is then matched by title and author), `Authors` lists several names separated by commas.
@Suite("CSV import parser: StoryGraph")
struct CSVImportParserStoryGraphTests {
    static let header =
        "Title,Authors,Contributors,ISBN/UID,Format,Read Status,Date Added,Last Date Read,Dates Read,Read Count,Moods,Pace,Character- or Plot-Driven?,Strong Character Development?,Loveable Characters?,Diverse Characters?,Flawed Characters?,Star Rating,Review,Content Warnings,Content Warning Description,Tags,Owned?"

    @Test func isbnUIDIsTheRowsISBNAndTheFirstAuthorIsMatched() throws {
        let csv =
            Self.header + "\n"
            + #""Good Omens","Terry Pratchett, Neil Gaiman",,9780060853983,paperback,read,2022/03/01,2022/04/10,,1,,,,,,,,4.5,,,,"humour",Yes"#
            + "\n"
            + #"Project Hail Mary,Andy Weir,,B08FHBV4ZX,digital,read,2021/05/04,2021/05/12,,1,,,,,,,,5,,,,sci-fi,No"#
            + "\n"
        let table = try CSVImportParser.parse(Array(csv.utf8), maxRows: 100).get()
        #expect(table.rows.count == 2)
        #expect(table.rows[0].isbn == "9780060853983")
        #expect(table.rows[0].author == "Terry Pratchett")
        #expect(table.rows[1].isbn == nil)  // an ASIN is not an ISBN
        #expect(table.rows[1].title == "Project Hail Mary")
        #expect(table.rows[1].author == "Andy Weir")
    }

    @Test func aFileWithOnlyISBNUIDIsAccepted() throws {
        let table = try CSVImportParser.parse(Array("ISBN/UID,Read Status\n9780441172719,read\n".utf8), maxRows: 100)
            .get()
        #expect(table.rows.first?.isbn == "9780441172719")
    }
}
