import BTSTerminalText
import BooksTrackContract
import BooksTrackSupport
import Foundation
import Testing

@testable import BTSShell

/// Golden output of every format for one small result.
@Suite("renderers")
struct RendererTests {
    static let value: JSONValue = .record([
        ("query", "hunger".json), ("kind", "title".json), ("totalCount", 2.json), ("count", 2.json),
        (
            "results",
            .array([
                .record([
                    ("isbn", "9780439023481".json), ("title", "The Hunger Games".json),
                    ("authors", ["Suzanne Collins"].json), ("year", 2008.json), ("pageCount", 374.json),
                ]),
                .record([
                    ("isbn", "9780439023498".json),
                    ("title", "Catching Fire, the second book of the \"Hunger Games\" trilogy".json),
                    ("authors", ["Suzanne Collins", "A. N. Other"].json), ("year", 2009.json),
                ]),
            ])
        ),
    ])

    static let view = ResultView.table(
        columns: CommandOutput.bookColumns,
        rowsKey: "results",
        footer: "(2 of 2 results)",
        empty: "No matches."
    )

    func render(_ format: OutputFormat, width: Int? = nil, colored: Bool = false, pretty: Bool = false) -> String {
        ResultRenderer(format: format, colored: colored, width: width, prettyJSON: pretty).render(
            Self.value,
            view: Self.view
        )
    }

    /// The empty text and the footer quote the user's words (`library search` with an unmatched
    /// query echoed its escape codes raw).
    @Test func theEmptyTextAndTheFooterShowNoControlCharacters() {
        let query = "zz\u{1B}[31mred\u{07}"
        let view = ResultView.table(
            columns: CommandOutput.bookColumns,
            rowsKey: "results",
            footer: "(results for '\(query)')",
            empty: "No books match '\(query)'."
        )
        let empty = ResultRenderer(format: .table, width: 80).render(.record([("results", .array([]))]), view: view)
        #expect(!empty.contains("\u{1B}") && !empty.contains("\u{07}"), "\(empty.debugDescription)")
        #expect(empty.hasPrefix("No books match 'zz"))
        let full = ResultRenderer(format: .table, width: 80).render(Self.value, view: view)
        #expect(!full.contains("\u{1B}") && !full.contains("\u{07}"), "\(full.debugDescription)")
    }

    @Test func tableAt120Columns() {
        #expect(
            render(.table, width: 120) == """
                ISBN           TITLE                                                         AUTHORS                       YEAR  PAGES
                -------------  ------------------------------------------------------------  ----------------------------  ----  -----
                9780439023481  The Hunger Games                                              Suzanne Collins               2008    374
                9780439023498  Catching Fire, the second book of the "Hunger Games" trilogy  Suzanne Collins, A. N. Other  2009
                (2 of 2 results)

                """
        )
    }

    @Test func tableAt60ColumnsTruncatesWithEllipsis() {
        let text = render(.table, width: 60)
        #expect(
            text == """
                ISBN           TITLE                 AUTHORS     YEAR  PAGES
                -------------  --------------------  ----------  ----  -----
                9780439023481  The Hunger Games      Suzanne C…  2008    374
                9780439023498  Catching Fire, the …  Suzanne C…  2009
                (2 of 2 results)

                """
        )
        for line in text.split(separator: "\n") { #expect(line.count <= 60) }
    }

    /// PAGES is empty in every row: the table leaves it out (CSV keeps every column).
    @Test func aColumnEmptyInEveryRowTakesNoRoom() {
        let value = JSONValue.record([
            (
                "results",
                .array([
                    .record([
                        ("isbn", "9780439023481".json), ("title", "The Hunger Games".json),
                        ("authors", ["Suzanne Collins"].json),
                        ("year", 2008.json),
                    ])
                ])
            )
        ])
        let table = ResultRenderer(format: .table, width: 80).render(value, view: Self.view)
        #expect(table.hasPrefix("ISBN           TITLE             AUTHORS          YEAR\n"))
        #expect(!table.contains("PAGES"))
        let csv = ResultRenderer(format: .csv).render(value, view: Self.view)
        #expect(csv.hasPrefix("isbn,title,authors,year,pageCount\n"))
    }

    /// At 80 columns the titles get the spare width in proportion to their length, so two Harry
    /// Potter titles that share their first 25 characters still read apart.
    @Test func spareWidthGoesToTheLongestTexts() {
        let value = JSONValue.record([
            (
                "results",
                .array([
                    .record([
                        ("isbn", "9780439554930".json),
                        ("title", "Harry Potter and the Sorcerer's Stone (Harry Potter, #1)".json),
                        ("authors", ["J.K. Rowling", "Mary GrandPré"].json), ("year", 1997.json),
                    ]),
                    .record([
                        ("isbn", "9780439064866".json),
                        ("title", "Harry Potter and the Chamber of Secrets (Harry Potter, #2)".json),
                        ("authors", ["J.K. Rowling", "Mary GrandPré"].json), ("year", 1998.json),
                    ]),
                ])
            )
        ])
        let text = ResultRenderer(format: .table, width: 80).render(value, view: Self.view)
        let lines = text.split(separator: "\n")
        for line in lines { #expect(line.count <= 80) }
        #expect(lines[2].contains("Harry Potter and the Sorcerer's S"))
        #expect(lines[3].contains("Harry Potter and the Chamber of S"))
        // Columns that fit are not cut at all.
        let fitting = [13, 20, 10, 4].map { TableLayout.Column(natural: $0, typical: $0, floor: 6, role: .flexible) }
        #expect(TableLayout.widths(fitting, total: 80) == [13, 20, 10, 4])
    }

    /// A sentence column (a recommendation's reason) grows after the title's share (a third of the
    /// width) and while the authors keep 16 columns: at 120 columns a short reason is whole; a long
    /// title keeps 40 columns before the reason grows.
    @Test func aReasonGrowsAfterTheTitlesShare() {
        let columns = [
            TableColumn("isbn", "ISBN"), .bookTitle,
            TableColumn("authors", "AUTHORS", flexible: true), TableColumn("reason", "REASON", prefersWhole: true),
        ]
        let reason = "Starts the Merry Gentry series, rated 4.03 by 32K readers"
        func table(title: String, width: Int) -> String {
            let value = JSONValue.record([
                (
                    "results",
                    .array([
                        .record([
                            ("isbn", "9780345490650".json), ("title", title.json),
                            ("authors", ["Laurell K. Hamilton", "Someone Else Entirely"].json), ("reason", reason.json),
                        ])
                    ])
                )
            ])
            let view = ResultView.table(columns: columns, rowsKey: "results", footer: nil, empty: nil)
            return ResultRenderer(format: .table, width: width).render(value, view: view)
        }
        let short = table(title: "A Kiss of Shadows", width: 120)
        #expect(short.contains("A Kiss of Shadows  Laurell K. Hamilton, Someo…  \(reason)"), "\(short)")
        let long = table(title: "A Kiss of Shadows (Merry Gentry, #1) and more words here", width: 120)
        #expect(
            long.contains(
                "A Kiss of Shadows (Merry Gentry, #1) an…  Laurell K. Hami…  Starts the Merry Gentry series, rated 4.03 b…"
            ),
            "\(long)"
        )
        let narrow = table(title: "A Kiss of Shadows (Merry Gentry, #1) and more words here", width: 80)
        for text in [short, long, narrow] {
            for line in text.split(separator: "\n") { #expect(line.count <= text.split(separator: "\n")[1].count) }
        }
        #expect(narrow.contains("A Kiss of Shadows (Merry …  Laurell K. Hami…  Starts the Merry G…"), "\(narrow)")
    }

    /// A record's CSV row shows arrays as a table cell does ("A, B"), not as JSON.
    @Test func csvCellsAreTheSameForRecordsAndTables() {
        let book = JSONValue.record([
            ("isbn", "9780439023498".json), ("title", "Catching Fire".json),
            ("authors", ["Suzanne Collins", "A. N. Other"].json),
        ])
        let text = ResultRenderer(format: .csv).render(
            book,
            view: .record(fields: [
                RecordField("isbn"), RecordField("title"),
                RecordField("authors"),
            ])
        )
        #expect(text == "isbn,title,authors\n9780439023498,Catching Fire,\"Suzanne Collins, A. N. Other\"\n")
        #expect(render(.csv).contains(",\"Suzanne Collins, A. N. Other\","))
    }

    @Test func compactAndPrettyJSON() {
        #expect(
            render(.json) == """
                {"count":2,"kind":"title","query":"hunger","results":[{"authors":["Suzanne Collins"],"isbn":"9780439023481","pageCount":374,"title":"The Hunger Games","year":2008},{"authors":["Suzanne Collins","A. N. Other"],"isbn":"9780439023498","title":"Catching Fire, the second book of the \\"Hunger Games\\" trilogy","year":2009}],"totalCount":2}

                """
        )
        #expect(render(.json, pretty: true).hasPrefix("{\n  \"count\": 2,\n  \"kind\": \"title\",\n"))
    }

    /// Strings in JSON output read back as themselves and carry no control, C1 or bidi character
    /// raw (printable ASCII goes in whole, the rest scalar by scalar).
    @Test func jsonStringsReadBackAndStayInert() throws {
        let pool: [String] = [
            "a", "Z", " ", "~", "\"", "\\", "/", "\n", "\r", "\t", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}",
            "\u{202E}", "\u{2066}", "é", "日", "😀", "e\u{301}", "\u{0}",
        ]
        var rng = SplitMix64(seed: 16)
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...8, using: &rng)).map { _ in pool.randomElement(using: &rng) ?? "" }
                .joined()
            let json = JSONValue.array([.string(text)]).compactJSON
            let back = try JSONDecoder().decode([String].self, from: Data(json.utf8))
            #expect(back == [text], "\(json)")
            #expect(!json.unicodeScalars.contains { TerminalText.needsWork($0) }, "\(json)")
        }
    }

    @Test func ndjsonHasOneObjectPerRow() {
        #expect(
            render(.ndjson) == """
                {"authors":["Suzanne Collins"],"isbn":"9780439023481","pageCount":374,"title":"The Hunger Games","year":2008}
                {"authors":["Suzanne Collins","A. N. Other"],"isbn":"9780439023498","title":"Catching Fire, the second book of the \\"Hunger Games\\" trilogy","year":2009}

                """
        )
    }

    @Test func csvQuotesPerRFC4180() {
        #expect(
            render(.csv) == """
                isbn,title,authors,year,pageCount
                9780439023481,The Hunger Games,Suzanne Collins,2008,374
                9780439023498,"Catching Fire, the second book of the ""Hunger Games"" trilogy","Suzanne Collins, A. N. Other",2009,

                """
        )
        #expect(ResultRenderer.csvField("a\nb") == "\"a\nb\"")
    }

    @Test func colourOnlyWhenAskedAndNeverOtherwise() {
        for format in OutputFormat.allCases {
            #expect(!render(format, width: 80).contains("\u{1B}"), "\(format) without colour has no escape code")
        }
        #expect(render(.table, width: 80, colored: true).hasPrefix("\u{1B}[1mISBN"))
    }

    @Test func truncationRespectsWideCharacters() {
        #expect(ResultRenderer.truncate("漢字漢字漢字", to: 7) == "漢字漢…")
        #expect(ResultRenderer.truncate("short", to: 10) == "short")
        #expect(ResultRenderer.truncate("abc", to: 1) == "…")
    }

    @Test func progressLine() {
        let line = ProgressLine(barWidth: 10).render(
            fraction: 0.5,
            processed: 50,
            total: 100,
            rate: 10,
            status: .processing
        )
        #expect(line == "[█████░░░░░]   50%  50/100  10.0/s  ETA 5 s  processing")
    }
}
