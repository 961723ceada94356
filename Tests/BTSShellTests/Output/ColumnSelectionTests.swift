import BTSLanguage
import BooksTrackContract
import Testing

@testable import BTSShell

/// `--columns NAME,…`: parsed against a command's columns, applied to its view, kept by the
/// layout whatever it would otherwise drop, and completed name by name.
@Suite("column selection")
struct ColumnSelectionTests {
    static let names = ColumnSelection.names(of: CommandOutput.bookColumns + CommandOutput.scoredColumns)

    @Test func theNamesAreTheHeadersInLowerCaseOnceEach() {
        #expect(Self.names == ["isbn", "title", "authors", "year", "pages", "score"])
    }

    @Test func namesAreCaseInsensitiveOrderedAndKeptOnce() {
        #expect(ColumnSelection.parse("Title, YEAR,title", among: Self.names) == .success("title,year"))
        #expect(ColumnSelection.parse("year,isbn", among: Self.names) == .success("year,isbn"))
        #expect(ColumnSelection.parse(" , ", among: Self.names) == .failure(.invalid))
    }

    @Test func anUnknownNameSuggestsTheListWithTheClosestInItsPlace() {
        #expect(
            ColumnSelection.parse("titel,year", among: Self.names) == .failure(.unknownWord(suggestion: "title,year"))
        )
        #expect(ColumnSelection.parse("title,zzzzzz", among: Self.names) == .failure(.unknownWord(suggestion: nil)))
    }

    @Test func theCheckRefusesAnUnknownNameNamingTheClosestAndEveryName() throws {
        let result = Parser.parse("search dune --columns titel,year")
        let message = try #require(CommandRegistry.standard.check(result.script).first?.message)
        #expect(message.contains("did you mean 'title,year'?"), "\(message)")
        #expect(message.contains("isbn, title, authors, year, pages or score"), "\(message)")
    }

    @Test func theOptionIsOnEveryTableCommandAndSaysWhereItApplies() throws {
        for path in [
            ["search"], ["search", "title"], ["search", "author"], ["search", "isbn"], ["more"], ["semantic"],
            ["similar"], ["recommend"], ["library", "list"], ["library", "search"], ["jobs"], ["results"], ["caps"],
            ["library", "shelves"],
        ] {
            let spec = try #require(CommandRegistry.standard.spec(at: path))
            let option = try #require(spec.option(long: "columns"), "\(path)")
            #expect(option.help.contains("json and ndjson keep everything"))
        }
        #expect(CommandRegistry.standard.spec(at: ["echo"])?.option(long: "columns") == nil)
    }

    @Test func theViewKeepsTheChosenColumnsInTheirOrder() {
        let view = ResultView.table(columns: CommandOutput.bookColumns, rowsKey: "results", footer: "(2)", empty: nil)
        guard case .table(let columns, _, let footer, _) = view.selectingColumns(["year", "title"]) else {
            Issue.record("not a table")
            return
        }
        #expect(columns.map(\.title) == ["YEAR", "TITLE"])
        #expect(columns.allSatisfy { $0.isChosen })
        #expect(footer == "(2)")
        #expect(view.selectingColumns(nil) == view)
    }

    @Test func sectionsLoseTheTablesWithNoneOfTheChosenColumns() {
        let record = ResultView.record(fields: [RecordField("jobId")])
        let errors = ResultView.table(
            columns: [.number("row", "ROW"), TableColumn("error", "ERROR")],
            rowsKey: "errors",
            footer: nil,
            empty: nil
        )
        let books = ResultView.table(columns: CommandOutput.bookColumns, rowsKey: "books", footer: nil, empty: nil)
        guard case .sections(let views) = ResultView.sections([record, errors, books]).selectingColumns(["title"])
        else {
            Issue.record("not sections")
            return
        }
        #expect(views.count == 2)
        #expect(views.first == record)
    }

    static let rows: JSONValue = .record([
        (
            "results",
            .array([
                .record([
                    ("isbn", "9780439023481".json), ("title", "The Hunger Games".json),
                    ("authors", ["Suzanne Collins"].json),
                    ("year", 2008.json), ("inLibrary", .bool(true)),
                ]),
                .record([
                    ("isbn", "9780439023498".json), ("title", "Catching Fire".json),
                    ("authors", ["Suzanne Collins"].json),
                    ("year", 2009.json), ("inLibrary", .bool(true)),
                ]),
            ])
        )
    ])

    static let withInLibrary = ResultView.table(
        columns: CommandOutput.bookColumns + [TableColumn("inLibrary", "IN LIBRARY", format: .mark)],
        rowsKey: "results",
        footer: nil,
        empty: nil
    )

    @Test func aChosenColumnIsNeverANoteNorLeftOutEmpty() {
        let whole = ResultRenderer(format: .table, width: 100).render(Self.rows, view: Self.withInLibrary)
        #expect(whole.contains("AUTHORS: Suzanne Collins (all rows)"))
        let chosen = ResultRenderer(format: .table, width: 100)
            .render(Self.rows, view: Self.withInLibrary.selectingColumns(["title", "authors", "in library", "pages"]))
        #expect(
            chosen == """
                TITLE             AUTHORS          IN LIBRARY  PAGES
                ----------------  ---------------  ----------  -----
                The Hunger Games  Suzanne Collins  yes
                Catching Fire     Suzanne Collins  yes

                """
        )
    }

    @Test func aChosenOptionalColumnStaysInANarrowTable() {
        let rows: JSONValue = .record([
            (
                "books",
                .array([
                    .record([
                        ("id", 1.json), ("isbn", "9780439023481".json),
                        ("title", String(repeating: "Long title ", count: 6).json),
                        ("authors", ["Suzanne Collins"].json), ("dateRead", "2020-01-01".json),
                    ])
                ])
            )
        ])
        let view = ResultView.table(columns: LibraryCommand.bookColumns, rowsKey: "books", footer: nil, empty: nil)
        let narrow = ResultRenderer(format: .table, width: 50).render(rows, view: view)
        #expect(!narrow.contains("9780439023481"))
        let chosen = ResultRenderer(format: .table, width: 50).render(
            rows,
            view: view.selectingColumns(["isbn", "title"])
        )
        #expect(chosen.hasPrefix("ISBN           TITLE"))
        #expect(chosen.contains("9780439023481"))
    }

    @Test(arguments: [ShellSettings.Toggle.on, .off, .auto])
    func theChoiceHoldsWithEveryExpandedSetting(_ expanded: ShellSettings.Toggle) {
        let view = Self.withInLibrary.selectingColumns(["year", "title"])
        let text = ResultRenderer(format: .table, width: 100, expanded: expanded).render(Self.rows, view: view)
        #expect(!text.contains("ISBN") && !text.contains("AUTHORS") && !text.contains("Collins"), "\(text)")
        #expect(text.contains("YEAR") && text.contains("TITLE") && text.contains("Catching Fire"), "\(text)")
        if expanded == .on { #expect(text.hasPrefix("YEAR   2008\nTITLE  The Hunger Games\n"), "\(text)") }
    }

    @Test func csvAndMarkdownFollowTheChoiceAndJSONKeepsTheWhole() {
        let view = Self.withInLibrary.selectingColumns(["year", "title"])
        #expect(
            ResultRenderer(format: .csv).render(Self.rows, view: view)
                == "year,title\n2008,The Hunger Games\n2009,Catching Fire\n"
        )
        #expect(
            ResultRenderer(format: .markdown).render(Self.rows, view: view).hasPrefix(
                "| YEAR | TITLE |\n| ---: | --- |\n"
            )
        )
        #expect(ResultRenderer(format: .json).render(Self.rows, view: view) == Self.rows.compactJSON + "\n")
    }

    @Test func completionOffersTheColumnsAfterTheOptionAndAfterAComma() {
        let engine = CompletionFixtures.engine()
        #expect(engine.answer("search dune --columns ").candidates == Self.names)
        #expect(engine.tab("search dune --columns ti") == "search dune --columns title ")
        #expect(
            engine.answer("search dune --columns title,").candidates
                == ["title,isbn", "title,authors", "title,year", "title,pages", "title,score"]
        )
        #expect(engine.tab("search dune --columns title,ye") == "search dune --columns title,year ")
        #expect(engine.answer("jobs --columns=st").candidates == ["--columns=status"])
        #expect(
            engine.answer("library list --columns ").candidates
                == ["id", "isbn", "title", "authors", "shelf", "rating", "read"]
        )
    }
}
