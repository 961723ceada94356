import BooksTrackContract
import BooksTrackLibrary
import BooksTrackSupport
import Foundation
import Testing

@Suite(.onWorkThreads) struct ExportReaderTests {
    @Test func unreadableFilesSayWhy() throws {
        #expect(throws: LibraryError.unreadableFile("the file is not UTF-8 text")) {
            try ExportReader.read(Data([0xFF, 0xFE, 0x00, 0xC3]))
        }
        #expect(throws: LibraryError.unreadableFile("the file is empty")) { try ExportReader.read("\n\n") }
        let notExport = #expect(throws: LibraryError.self) { try ExportReader.read("name,age\nbob,3\n") }
        #expect(notExport?.message.contains("not a Goodreads or StoryGraph export") == true)
    }

    /// A quote that never closes made every later row part of one title (exit 0, no problem listed).
    @Test func anUnclosedQuoteRefusesTheFile() throws {
        let csv = "Title,Author\nDune,Frank Herbert\n\"Emma,Jane Austen\nLolita,Vladimir Nabokov\nUlysses,James Joyce\n"
        #expect(
            throws: LibraryError.unreadableFile(
                "line 3 opens a quote that is never closed (the rest of the file would be one cell); nothing was imported"
            )
        ) {
            try ExportReader.read(csv)
        }
        // Doubled quotes inside a quoted cell close nothing.
        let fine = try ExportReader.read("Title,Author\n\"The \"\"Big\"\" Sleep\",Raymond Chandler\nEmma,Jane Austen\n")
        #expect(fine.books.map(\.data.title) == ["The \"Big\" Sleep", "Emma"])
    }

    @Test func badCellsAreReportedAndTheRowKept() throws {
        let csv = """
            \u{FEFF}Title,Author,ISBN13,My Rating,Date Read,Exclusive Shelf,Number of Pages
            Dune,Frank Herbert,"=\"\"9780441172710\"\"",7,2023/13/40,read,many
            ,Nobody,,,,,
            Emma,Jane Austen,,3,2020-05-06,Read,
            "Bad\u{07}\u{1B}[31m",X,,,never\u{1B}[2J,,
            """
        let file = try ExportReader.read(csv)
        #expect(file.format == .goodreads)
        #expect(file.books.map(\.data.title) == ["Dune", "Emma", "Bad\u{07}\u{1B}[31m"])
        #expect(file.books[0].data.isbn13 == nil)
        #expect(file.books[0].reading.rating == nil)
        #expect(file.books[1].reading.dateRead == BookDate(year: 2020, month: 5, day: 6))
        #expect(file.books[1].reading.shelf == .read)
        let messages = file.problems.map(\.description)
        #expect(messages.contains { $0.hasPrefix("row 1: ISBN '9780441172710' is not a valid ISBN") })
        #expect(messages.contains { $0.hasPrefix("row 1: My Rating 7") })
        #expect(messages.contains { $0.hasPrefix("row 1: Date Read '2023/13/40' is not a date") })
        #expect(messages.contains { $0.hasPrefix("row 1: Number of Pages 'many'") })
        #expect(messages.contains("row 2: no title; row skipped"))
        // Cell excerpts in messages carry no control characters (terminal escapes) and stay short.
        #expect(messages.contains("row 4: Date Read 'never?[2J' is not a date (YYYY/MM/DD); left empty"))
    }

    @Test func datesAndShelves() {
        #expect(BookDate(parsing: "2019/03/02")?.iso == "2019-03-02")
        #expect(BookDate(parsing: "2019-03")?.iso == "2019-03-01")
        #expect(BookDate(parsing: "2019/02/29") == nil)
        #expect(BookDate(parsing: "2020/02/29")?.slashed == "2020/02/29")
        #expect(BookDate(parsing: "1900/02/29") == nil)
        #expect(BookDate(parsing: "2000/02/29") != nil)
        #expect(BookDate(parsing: "2021/04/31") == nil)
        #expect(BookDate(year: 7, month: 1, day: 5)?.iso == "0007-01-05")
        #expect(BookDate(parsing: "19/02/01") == nil)
        #expect(BookDate(parsing: "2019/02/01 12:00") == nil)
        #expect(Shelf(rawValue: " Currently Reading ") == .currentlyReading)
        #expect(Shelf(rawValue: "did_not_finish") == .didNotFinish)
        #expect(Shelf(rawValue: "") == .toRead)
    }

    /// Random bytes, random CSV-ish text and mutated fixtures never crash the reader: it returns or
    /// throws `LibraryError`.
    @Test func fuzz() throws {
        var rng = SplitMix64(seed: 0x5EED)
        let fixture = Array(try Fixture.data("goodreads_library_export.csv"))
        let story = Array(try Fixture.data("storygraph_export.csv"))
        let alphabet = Array("ab,\"\n\r=;#/-0123456789 é".utf8)
        for i in 0..<600 {
            var bytes: [UInt8]
            switch i % 3 {
            case 0: bytes = (0..<Int(rng.next() % 300)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            case 1: bytes = (0..<Int(rng.next() % 300)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            default:
                bytes = i % 2 == 0 ? fixture : story
                for _ in 0..<(1 + Int(rng.next() % 6)) {
                    let at = Int(rng.next() % UInt64(bytes.count))
                    bytes[at] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                }
            }
            do {
                let file = try ExportReader.read(Data(bytes))
                #expect(file.books.allSatisfy { !$0.data.title.isEmpty })
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
    }
}
