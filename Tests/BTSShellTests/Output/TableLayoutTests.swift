import BTSLanguage
import BTSTerminalText
import BooksTrackContract
import Testing

@testable import BTSShell

/// The title is cut last: other flexible columns shrink toward their typical cell first.
@Suite("table layout")
struct TableLayoutTests {
    /// `search hunger gmes`: eight titles, one of 88 characters; eight author cells, seven of at
    /// most 15 characters and one of fourteen names.
    static let titles = [
        "The Hunger Games (The Hunger Games, #1)", "Catching Fire (The Hunger Games, #2)",
        "Mockingjay (The Hunger Games, #3)", "The Hunger Games Trilogy Boxset (The Hunger Games, #1-3)",
        "The Hunger Games: Official Illustrated Movie Companion", "The Hunger Games Tribute Guide",
        "The World of the Hunger Games (Hunger Games Trilogy)",
        "The Girl Who Was on Fire: Your Favorite Authors on Suzanne Collins' Hunger Games Trilogy",
    ]
    static let authors = [
        ["Suzanne Collins"], ["Suzanne Collins"], ["Suzanne Collins"], ["Suzanne Collins"], ["Kate Egan"],
        ["Emily Seife"], ["Kate Egan"],
        [
            "Leah Wilson", "Jennifer Lynn Barnes", "Mary Borsellino", "Sarah Rees Brennan", "Terri  Clark",
            "Bree Despain",
            "Adrienne Kress", "Sarah Darer Littman", "Cara Lockwood", "Elizabeth M. Rees", "Carrie Ryan", "Ned Vizzini",
            "Lili Wilkinson", "Blythe Woolston",
        ],
    ]

    static func hungerColumns(bound: Int) -> [TableLayout.Column] {
        [
            TableLayout.Column(header: 4, cells: Array(repeating: 13, count: 8), role: .fixed),
            TableLayout.Column(header: 5, cells: titles.map(DisplayWidth.of), role: .primary),
            TableLayout.Column(
                header: 7,
                cells: authors.map { min(bound, DisplayWidth.of($0.joined(separator: ", "))) },
                role: .flexible
            ),
            TableLayout.Column(header: 4, cells: Array(repeating: 4, count: 8), role: .fixed),
        ]
    }

    @Test(arguments: [100, 80])
    func theTitleIsCutOnlyOnceTheOthersAreAtTheirTypicalWidth(width: Int) {
        let columns = Self.hungerColumns(bound: width)
        let widths = TableLayout.widths(columns, total: width)
        #expect(widths.reduce(0, +) + 6 == width, "\(widths)")
        // AUTHORS is cut to its typical cell (15), not its outlier; TITLE gets the rest.
        #expect(widths[2] == 15, "\(widths)")
        #expect(widths[1] == width - 6 - 13 - 15 - 4, "\(widths)")
        #expect(widths[0] == 13 && widths[3] == 4, "\(widths)")
    }

    @Test func aTableThatFitsKeepsItsNaturalWidthsAndNoColumnIsWiderThanItsCells() {
        let columns = [
            TableLayout.Column(header: 4, cells: [13, 13], role: .fixed),
            TableLayout.Column(header: 5, cells: [20, 9], role: .primary),
            TableLayout.Column(header: 7, cells: [3, 3], role: .flexible),
        ]
        #expect(TableLayout.widths(columns, total: 200) == [13, 20, 7])
    }

    @Test func theTitleKeepsItsShareBeforeASentenceIsCutAndIsCutBeforeTheFloors() {
        let columns = [
            TableLayout.Column(natural: 13, typical: 13, floor: 6, role: .fixed),
            TableLayout.Column(natural: 56, typical: 56, floor: 6, role: .primary),
            TableLayout.Column(natural: 41, typical: 41, floor: 7, role: .flexible),
            TableLayout.Column(natural: 58, typical: 58, floor: 6, role: .sentence),
        ]
        // 120: authors to 16, the title to its share (40), the reason takes what is left.
        #expect(TableLayout.widths(columns, total: 120) == [13, 40, 16, 45])
        // 60: everything at its narrow width, the title gets the rest before it is cut further.
        let narrow = TableLayout.widths(columns, total: 60)
        #expect(narrow.reduce(0, +) + 6 == 60, "\(narrow)")
        #expect(narrow[2] == 10 && narrow[3] == 10 && narrow[1] == 21, "\(narrow)")
    }

    @Test func renderedAt80TheTitleIsCutLast() {
        let rows: [JSONValue] = Self.titles.indices.map { index in
            .record([
                ("isbn", "978043902348\(index)".json), ("title", Self.titles[index].json),
                ("authors", Self.authors[index].json), ("year", 2010.json),
            ])
        }
        let columns = [
            TableColumn("isbn", "ISBN"), .bookTitle, TableColumn("authors", "AUTHORS", flexible: true),
            .number("year", "YEAR"),
        ]
        let view = ResultView.table(columns: columns, rowsKey: "results", footer: nil, empty: nil)
        let text = ResultRenderer(format: .table, width: 80).render(.record([("results", .array(rows))]), view: view)
        let lines = text.split(separator: "\n").map(String.init)
        for line in lines { #expect(DisplayWidth.of(line) <= 80, "\(text)") }
        // Whole titles up to 48 columns; AUTHORS at 15; YEAR (2010 in every row) became a note.
        #expect(
            lines.contains { $0.hasSuffix("The Hunger Games (The Hunger Games, #1)           Suzanne Collins") },
            "\(text)"
        )
        #expect(
            lines.contains { $0.contains("The Hunger Games Trilogy Boxset (The Hunger Gam…  Suzanne Collins") },
            "\(text)"
        )
        #expect(lines.last == "YEAR: 2010 (all rows)", "\(text)")
        #expect(!lines[0].contains("YEAR"), "\(text)")
    }

    @Test func aLongOneValueNoteIsWrappedBetweenWordsNotCut() {
        let column = TableColumn("authors", "AUTHORS", flexible: true)
        let view = ResultView.table(columns: [.bookTitle, column], rowsKey: "results", footer: nil, empty: nil)
        let authors = "Neil Gaiman, Terry Pratchett and a long list of other contributors"
        let value = JSONValue.record([
            (
                "results",
                .array([
                    .record([("title", "Good Omens".json), ("authors", authors.json)]),
                    .record([("title", "Good Omens (again)".json), ("authors", authors.json)]),
                ])
            )
        ])
        let table = ResultRenderer(format: .table, width: 40).render(value, view: view)
        let lines = table.split(separator: "\n").map(String.init)
        for line in lines { #expect(DisplayWidth.of(line) <= 40, "\(table)") }
        #expect(!table.contains("…"), "\(table)")
        #expect(lines.suffix(3).joined(separator: " ") == "AUTHORS: \(authors) (all rows)", "\(table)")
    }

    @Test func aColumnOfOneValueIsANoteOnATableOnly() {
        let column = TableColumn("inLibrary", "IN LIBRARY", format: .mark)
        let view = ResultView.table(
            columns: [.bookTitle, column],
            rowsKey: "results",
            footer: "(2 results)",
            empty: nil
        )
        let value = JSONValue.record([
            (
                "results",
                .array([
                    .record([("title", "Dune".json), ("inLibrary", .bool(true))]),
                    .record([("title", "Emma".json), ("inLibrary", .bool(true))]),
                ])
            )
        ])
        let table = ResultRenderer(format: .table, width: 80).render(value, view: view)
        #expect(table == "TITLE\n-----\nDune\nEmma\nIN LIBRARY: yes (all rows)\n(2 results)\n", "\(table)")
        let csv = ResultRenderer(format: .csv).render(value, view: view)
        #expect(csv == "title,inLibrary\nDune,true\nEmma,true\n", "\(csv)")
        let json = ResultRenderer(format: .json).render(value, view: view)
        #expect(!json.contains("all rows"), "\(json)")
        // One row: the column stays.
        let one = JSONValue.record([
            ("results", .array([.record([("title", "Dune".json), ("inLibrary", .bool(true))])]))
        ])
        #expect(ResultRenderer(format: .table, width: 80).render(one, view: view).contains("IN LIBRARY"))
    }
}

/// `set expanded`: rows as blocks of `FIELD  value` lines.
@Suite("expanded tables")
struct ExpandedTableTests {
    static let view = ResultView.table(
        columns: [
            TableColumn("isbn", "ISBN"), .bookTitle,
            TableColumn("authors", "AUTHORS", flexible: true),
        ],
        rowsKey: "results",
        footer: "(2 results)",
        empty: nil
    )
    static let value = JSONValue.record([
        (
            "results",
            .array([
                .record([
                    ("isbn", "9780439023481".json), ("title", "The Hunger Games (The Hunger Games, #1)".json),
                    ("authors", ["Suzanne Collins"].json),
                ]),
                .record([
                    ("isbn", "9780545422901".json),
                    ("title", "The Hunger Games: Official Illustrated Movie Companion".json),
                    ("authors", ["Kate Egan"].json),
                ]),
            ])
        )
    ])

    static func render(width: Int, _ expanded: ShellSettings.Toggle) -> String {
        ResultRenderer(format: .table, width: width, expanded: expanded).render(value, view: view)
    }

    @Test func onShowsEachRowAsABlock() {
        #expect(
            Self.render(width: 80, .on) == """
                ISBN     9780439023481
                TITLE    The Hunger Games (The Hunger Games, #1)
                AUTHORS  Suzanne Collins

                ISBN     9780545422901
                TITLE    The Hunger Games: Official Illustrated Movie Companion
                AUTHORS  Kate Egan
                (2 results)

                """
        )
    }

    @Test func autoOnlyWhenTheTitleWouldBeCutShort() {
        // 80 columns: a table (the title gets its room).
        #expect(Self.render(width: 80, .auto).hasPrefix("ISBN           TITLE"))
        // 40 columns: the title would get fewer than 20 columns; blocks, wrapped under the value.
        let narrow = Self.render(width: 40, .auto)
        #expect(
            narrow.hasPrefix("ISBN     9780439023481\nTITLE    The Hunger Games (The Hunger\n         Games, #1)\n"),
            "\(narrow)"
        )
        for line in narrow.split(separator: "\n") { #expect(DisplayWidth.of(String(line)) <= 40, "\(narrow)") }
        // off: a table, however narrow.
        #expect(Self.render(width: 40, .off).hasPrefix("ISBN           TITLE"))
        // CSV and JSON never change.
        let csv = ResultRenderer(format: .csv, width: 40, expanded: .on).render(Self.value, view: Self.view)
        #expect(csv.hasPrefix("isbn,title,authors\n"))
    }

    @Test func theSettingIsDeclaredAndValidated() {
        var settings = ShellSettings()
        #expect(settings.value(of: "expanded") == "auto")
        #expect(settings.apply("expanded", "on") && settings.expanded == .on)
        #expect(!settings.apply("expanded", "sometimes") && settings.expanded == .on)
        #expect(CommandRegistry.standardSettings.contains { $0.name == "expanded" })
    }
}
