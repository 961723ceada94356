import BooksTrackCatalog
import Foundation
import Testing

/// Builds a books.csv with the real header and the given rows (only the columns the cleaner reads vary).
private func csv(_ rows: [[String: String]]) -> Data {
    let header = [
        "book_id", "goodreads_book_id", "best_book_id", "work_id", "books_count", "isbn", "isbn13", "authors",
        "original_publication_year", "original_title", "title", "language_code", "average_rating", "ratings_count",
        "work_ratings_count", "work_text_reviews_count", "ratings_1", "ratings_2", "ratings_3", "ratings_4",
        "ratings_5", "image_url", "small_image_url",
    ]
    func quote(_ s: String) -> String {
        s.contains(",") || s.contains("\"") ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }
    var lines = [header.joined(separator: ",")]
    for (i, row) in rows.enumerated() {
        let defaults: [String: String] = [
            "book_id": String(i + 1), "goodreads_book_id": "100", "work_id": "200", "isbn": "439023483",
            "isbn13": "9.78043902348e+12", "authors": "Suzanne Collins", "original_publication_year": "2008.0",
            "title": "A Book", "language_code": "eng", "average_rating": "4.34", "ratings_count": "4780653",
            "image_url": "https://images.gr-assets.com/books/1447303603m/2767052.jpg",
            "small_image_url": "https://images.gr-assets.com/books/1447303603s/2767052.jpg",
        ]
        lines.append(header.map { quote(row[$0] ?? defaults[$0] ?? "0") }.joined(separator: ","))
    }
    return Data((lines.joined(separator: "\n") + "\n").utf8)
}

private func cleanOne(_ row: [String: String]) throws -> (CatalogBook, CleaningReport) {
    let (books, report) = try CatalogCleaner.clean(csvData: csv([row]))
    let book = try #require(books.first)
    return (book, report)
}

@Suite(.onWorkThreads) struct CleaningTests {
    @Test func padsISBN10AndDerivesISBN13IgnoringFloatColumn() throws {
        let (book, report) = try cleanOne(["isbn": "439023483", "isbn13": "9.78043902348e+12"])
        #expect(book.isbn10 == "0439023483")
        #expect(book.isbn13 == "9780439023481")
        #expect(report.withISBN == 1)
    }

    @Test func keepsXCheckDigit() throws {
        // 080442957X is a valid ISBN-10 with an X check character.
        let (book, report) = try cleanOne(["isbn": "80442957X"])
        #expect(book.isbn10 == "080442957X")
        #expect(book.isbn13 == "9780804429573")
        #expect(report.isbn10WithX == 1)
    }

    @Test func missingAndInvalidISBNsBecomeBooksWithoutISBN() throws {
        let (books, report) = try CatalogCleaner.clean(
            csvData: csv([["isbn": ""], ["isbn": "439023484"], ["isbn": "12345678901"]])
        )
        #expect(books.count == 3)
        #expect(books.allSatisfy { $0.isbn10 == nil && $0.isbn13 == nil })
        #expect(report.missingISBN == 1)
        #expect(report.invalidISBN10 == 2)
    }

    @Test(arguments: [
        ("2008.0", Optional(2008)), ("-720.0", Optional(-720)), ("", nil), ("  ", nil), ("abc", nil),
        ("1997", Optional(1997)),
    ])
    func years(raw: String, expected: Int?) throws {
        let (book, _) = try cleanOne(["original_publication_year": raw])
        #expect(book.year == expected)
    }

    @Test func negativeYearsAreCounted() throws {
        let (_, report) = try CatalogCleaner.clean(csvData: csv([["original_publication_year": "-750.0"], [:]]))
        #expect(report.negativeYears == 1)
        #expect(report.withYear == 2)
    }

    @Test(arguments: [
        ("eng", Optional("en")), ("en-US", Optional("en")), ("en-GB", Optional("en")), ("en-CA", Optional("en")),
        ("spa", Optional("es")), ("fre", Optional("fr")), ("ger", Optional("de")), ("", nil), ("xyz", Optional("xyz")),
    ])
    func languages(raw: String, expected: String?) throws {
        let (book, _) = try cleanOne(["language_code": raw])
        #expect(book.language == expected)
    }

    @Test func emptyLanguageIsCounted() throws {
        let (_, report) = try CatalogCleaner.clean(csvData: csv([["language_code": ""], ["language_code": "en-US"]]))
        #expect(report.withoutLanguage == 1)
        #expect(report.languages["en"] == 1)
    }

    @Test(
        arguments: [
            (
                "The Hunger Games (The Hunger Games, #1)", "The Hunger Games", Optional("The Hunger Games"),
                Optional(1.0)
            ),
            (
                "The Hunger Games Trilogy Boxset (The Hunger Games, #1-3)", "The Hunger Games Trilogy Boxset",
                Optional("The Hunger Games"), Optional(1.0)
            ),
            (
                "Four: A Divergent Story Collection (Divergent, #0.1 - 0.4)", "Four: A Divergent Story Collection",
                Optional("Divergent"), Optional(0.1)
            ),
            ("Midnight Sun (Twilight, #1.5)", "Midnight Sun", Optional("Twilight"), Optional(1.5)),
            ("Dune (Dune Chronicles #1)", "Dune", Optional("Dune Chronicles"), Optional(1.0)),
            (
                "The Oedipus Cycle (The Theban Plays, #1–3)", "The Oedipus Cycle", Optional("The Theban Plays"),
                Optional(1.0)
            ),
            (
                "A Storm of Swords: Blood and Gold (A Song of Ice and Fire, #3: Part 2 of 2)",
                "A Storm of Swords: Blood and Gold", Optional("A Song of Ice and Fire"), Optional(3.0)
            ),
            (
                "Is Everyone Hanging Out Without Me? (And Other Concerns)",
                "Is Everyone Hanging Out Without Me? (And Other Concerns)", nil, nil
            ),
            ("Pride and Prejudice", "Pride and Prejudice", nil, nil),
            ("Weird (#)", "Weird (#)", nil, nil),
        ] as [(String, String, String?, Double?)]
    )
    func seriesParsing(title: String, base: String, series: String?, number: Double?) throws {
        let parsed = CatalogFieldCleaning.series(inTitle: title)
        #expect(parsed.base == base)
        #expect(parsed.series?.name == series)
        #expect(parsed.series?.number == number)
        let (book, _) = try cleanOne(["title": title])
        #expect(book.title == title)
        #expect(book.series == series)
    }

    @Test func splitsAuthorsKeepingSuffixes() throws {
        let (book, _) = try cleanOne(["authors": "J.K. Rowling, Mary GrandPré"])
        #expect(book.authors == ["J.K. Rowling", "Mary GrandPré"])
        #expect(
            CatalogFieldCleaning.authors("Martin Luther King, Jr., Clayborne Carson") == [
                "Martin Luther King, Jr.", "Clayborne Carson",
            ]
        )
        #expect(CatalogFieldCleaning.authors(" , ") == [])
    }

    @Test func dropsPlaceholderImagesAndKeepsRealOnes() throws {
        let (placeholder, report) = try cleanOne([
            "image_url": "https://s.gr-assets.com/assets/nophoto/book/111x148-bcc042a9c91a29c1d680899eff700a03.png",
            "small_image_url": "https://s.gr-assets.com/assets/nophoto/book/50x75-a91bf249278a81aabab721ef782c4a74.png",
        ])
        #expect(placeholder.imageURL == nil && placeholder.smallImageURL == nil)
        #expect(report.placeholderImagesDropped == 1)
        let (real, _) = try cleanOne([:])
        #expect(real.imageURL == "https://images.gr-assets.com/books/1447303603m/2767052.jpg")
        #expect(real.smallImageURL == "https://images.gr-assets.com/books/1447303603s/2767052.jpg")
    }

    @Test func originalTitleOnlyWhenDifferent() throws {
        let (same, _) = try cleanOne(["title": "Emma", "original_title": "Emma"])
        #expect(same.originalTitle == nil)
        let (different, _) = try cleanOne([
            "title": "Harry Potter and the Sorcerer's Stone (Harry Potter, #1)",
            "original_title": "Harry Potter and the Philosopher's Stone",
        ])
        #expect(different.originalTitle == "Harry Potter and the Philosopher's Stone")
    }

    @Test func ratingsAreKept() throws {
        let (book, _) = try cleanOne(["average_rating": "4.44", "ratings_count": "4602479"])
        #expect(book.averageRating == 4.44)
        #expect(book.ratingsCount == 4_602_479)
    }

    @Test func missingColumnIsAClearError() {
        #expect(throws: CatalogCleaner.Failure.self) {
            _ = try CatalogCleaner.clean(csvData: Data("book_id,title\n1,A\n".utf8))
        }
    }

    @Test func rowsWithoutIDOrTitleAreSkipped() throws {
        let (books, report) = try CatalogCleaner.clean(csvData: csv([["book_id": "x"], ["title": ""], [:]]))
        #expect(books.count == 1)
        #expect(report.skipped == 2)
        #expect(report.rows == 3)
    }

    @Test func tsvRoundTripsEscapes() throws {
        let book = CatalogBook(
            id: 7,
            goodreadsBookID: 1,
            goodreadsWorkID: 2,
            isbn10: nil,
            isbn13: nil,
            title: "Tab\there | pipe \\ back\nline",
            originalTitle: nil,
            series: "S|x",
            seriesNumber: 0.5,
            authors: ["A|B", "C"],
            year: -500,
            language: nil,
            averageRating: 3.5,
            ratingsCount: 10,
            imageURL: "https://images.gr-assets.com/books/1m/2.jpg",
            smallImageURL: "https://other/x.jpg"
        )
        let decoded = try CatalogResourceTSV.decode(CatalogResourceTSV.encode([book]))
        #expect(decoded == [book])
    }

    static let goodbooksCSV = "/work/shared/data/goodbooks-10k/books.csv"

    /// Regenerates the resource from the real goodbooks-10k file (skipped where the data set is absent).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: CleaningTests.goodbooksCSV)))
    func cleanerWritesTheResourceFormatFromTheRealFile() throws {
        let source = URL(fileURLWithPath: Self.goodbooksCSV)
        let dir = try makeTempDirectory("clean")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("catalog.tsv")
        let report = try CatalogCleaner.clean(csvAt: source, to: out)
        print("[catalog] cleaning: \(report)")
        #expect(report.rows == 10_000 && report.written == 10_000)
        #expect(report.withISBN + report.missingISBN + report.invalidISBN10 == 10_000)
        #expect(report.missingISBN == 700)
        #expect(report.withoutLanguage == 1084)
        // The committed resource is exactly what the cleaner produces.
        #expect(try Data(contentsOf: out) == (try SQLiteCatalog.bundledResource()))
    }
}
