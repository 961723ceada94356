import BooksTrackContract
import Testing

@testable import BTSShell

/// Golden output of every format for one small result.
@Suite("renderers")
struct RendererTests {
    static let value: JSONValue = .record([
        ("query", "hunger".json), ("kind", "title".json), ("totalCount", 2.json), ("count", 2.json),
        ("results", .array([
            .record([("isbn", "9780439023481".json), ("title", "The Hunger Games".json),
                     ("authors", ["Suzanne Collins"].json), ("year", 2008.json), ("pageCount", 374.json)]),
            .record([("isbn", "9780439023498".json),
                     ("title", "Catching Fire, the second book of the \"Hunger Games\" trilogy".json),
                     ("authors", ["Suzanne Collins", "A. N. Other"].json), ("year", 2009.json)]),
        ])),
    ])

    static let view = ResultView.table(columns: CommandOutput.bookColumns, rowsKey: "results",
                                       footer: "(2 of 2 results)", empty: "No matches.")

    func render(_ format: OutputFormat, width: Int? = nil, colored: Bool = false, pretty: Bool = false) -> String {
        ResultRenderer(format: format, colored: colored, width: width, prettyJSON: pretty).render(Self.value, view: Self.view)
    }

    @Test func tableAt120Columns() {
        #expect(render(.table, width: 120) == """
            ISBN           TITLE                                                         AUTHORS                       YEAR  PAGES
            -------------  ------------------------------------------------------------  ----------------------------  ----  -----
            9780439023481  The Hunger Games                                              Suzanne Collins               2008    374
            9780439023498  Catching Fire, the second book of the "Hunger Games" trilogy  Suzanne Collins, A. N. Other  2009
            (2 of 2 results)

            """)
    }

    @Test func tableAt60ColumnsTruncatesWithEllipsis() {
        let text = render(.table, width: 60)
        #expect(text == """
            ISBN           TITLE            AUTHORS          YEAR  PAGES
            -------------  ---------------  ---------------  ----  -----
            9780439023481  The Hunger Gam…  Suzanne Collins  2008    374
            9780439023498  Catching Fire,…  Suzanne Collin…  2009
            (2 of 2 results)

            """)
        for line in text.split(separator: "\n") { #expect(line.count <= 60) }
    }

    @Test func compactAndPrettyJSON() {
        #expect(render(.json) == """
            {"count":2,"kind":"title","query":"hunger","results":[{"authors":["Suzanne Collins"],"isbn":"9780439023481","pageCount":374,"title":"The Hunger Games","year":2008},{"authors":["Suzanne Collins","A. N. Other"],"isbn":"9780439023498","title":"Catching Fire, the second book of the \\"Hunger Games\\" trilogy","year":2009}],"totalCount":2}

            """)
        #expect(render(.json, pretty: true).hasPrefix("{\n  \"count\": 2,\n  \"kind\": \"title\",\n"))
    }

    @Test func ndjsonHasOneObjectPerRow() {
        #expect(render(.ndjson) == """
            {"authors":["Suzanne Collins"],"isbn":"9780439023481","pageCount":374,"title":"The Hunger Games","year":2008}
            {"authors":["Suzanne Collins","A. N. Other"],"isbn":"9780439023498","title":"Catching Fire, the second book of the \\"Hunger Games\\" trilogy","year":2009}

            """)
    }

    @Test func csvQuotesPerRFC4180() {
        #expect(render(.csv) == """
            isbn,title,authors,year,pageCount
            9780439023481,The Hunger Games,Suzanne Collins,2008,374
            9780439023498,"Catching Fire, the second book of the ""Hunger Games"" trilogy","Suzanne Collins, A. N. Other",2009,

            """)
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
        let line = ProgressLine(barWidth: 10).render(fraction: 0.5, processed: 50, total: 100, elapsed: 5, status: "processing")
        #expect(line == "[█████░░░░░]   50%  50/100  10.0/s  ETA 5 s  processing")
    }
}
