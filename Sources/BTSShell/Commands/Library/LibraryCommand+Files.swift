import BTSLanguage
import BTSTerminal
import BooksTrackContract
import BooksTrackLibrary
import Foundation

/// `library shelves`, `library stats`, `library export`, `library import`.
extension LibraryCommand {
    /// `library shelves`.
    struct Shelves: LibrarySubcommand {
        static let result: CommandResult = .shape([
            ResultShape.Field(
                "shelves",
                .list(
                    .record([
                        ResultShape.Field("name", .string, "the shelf's or tag's name"),
                        ResultShape.Field("kind", .string, "shelf or tag"),
                        ResultShape.Field("count", .number, "its books"),
                    ])
                ),
                "the shelves and tags in use"
            )
        ])

        static let configuration = CommandSpec(
            "shelves",
            group: .library,
            summary: "Your shelves and tags with their book counts",
            options: [CommandSpec.columnsOption(LibraryCommand.shelfColumns)],
            examples: ["library shelves"]
        )

        init(_ resolved: ResolvedCommand) {}

        func run(library: BookLibrary, in context: isolated any CommandContext) async throws -> CommandOutput? {
            try await LibraryCommand.shelves(library: library)
        }
    }

    /// `library stats`.
    struct Stats: LibrarySubcommand {
        static let result: CommandResult = .shape(.libraryStats)

        static let configuration = CommandSpec(
            "stats",
            group: .library,
            summary: "Charts of your reading: books read per year, books per shelf, your ratings",
            discussion: """
                The charts are the table form; like every command's result it is JSON when stdout is not a \
                terminal. --output csv and ndjson give one row per bar: chart (readPerYear, perShelf, ratings, \
                totals), label and count.
                """,
            examples: ["library stats", "library stats --output json", "library stats --output csv"]
        )

        init(_ resolved: ResolvedCommand) {}

        func run(library: BookLibrary, in context: isolated any CommandContext) async throws -> CommandOutput? {
            try await LibraryCommand.stats(library: library, width: context.output.terminal.columns)
        }
    }

    static let exportFile = ArgumentSpec(
        "FILE",
        "The CSV file to write ('-' for standard output)",
        type: .path(extensions: ["csv"]),
        completion: .filePath(extensions: ["csv"])
    )
    /// `library export`.
    struct Export: LibrarySubcommand {
        static let result: CommandResult = .shape([
            ResultShape.Field("file", .string, "the file written"),
            ResultShape.Field("format", .string, "goodreads"),
            ResultShape.Field("count", .number, "books written"),
        ])

        static let configuration = CommandSpec(
            "export",
            group: .library,
            summary: "Write your library as a Goodreads export CSV (Goodreads and StoryGraph import it)",
            discussion: """
                Same header, column order and quoting as Goodreads' own export. An existing FILE is replaced \
                (a regular file only); the file is private (0600). Cells starting with =, +, - or @ get a \
                leading ' so a spreadsheet does not run them as formulas.
                """,
            positionals: [exportFile],
            options: [shelfFilter],
            examples: ["library export my_books.csv", "library export - --shelf read"]
        )

        var file: BoundValue?
        var shelf: String?

        init(_ resolved: ResolvedCommand) {
            file = resolved.values(LibraryCommand.exportFile).first
            shelf = resolved.string(LibraryCommand.shelfFilter)
        }

        func run(library: BookLibrary, in context: isolated any CommandContext) async throws -> CommandOutput? {
            try await LibraryCommand.export(file, shelf: shelf, library: library, in: context)
        }
    }

    static let importFile = ArgumentSpec(
        "FILE",
        "A Goodreads or StoryGraph export CSV",
        type: .path(extensions: ["csv"]),
        completion: .filePath(extensions: ["csv"])
    )
    /// `library import`.
    struct Import: LibrarySubcommand {
        static let result: CommandResult = .shape([
            ResultShape.Field("file", .string, "the file read"),
            ResultShape.Field("format", .string, "goodreads or storygraph"),
            ResultShape.Field("rows", .number, "books read from it"),
            ResultShape.Field("library", .record(.saveSummary), "what it did to your library"),
            ResultShape.Field(
                "problems",
                .list(
                    .record([
                        ResultShape.Field("row", .number, "the file's row"),
                        ResultShape.Field("problem", .string, "what is wrong with it"),
                    ])
                ),
                "rows left out"
            ),
        ])

        static let configuration = CommandSpec(
            "import",
            group: .library,
            summary: "Add a Goodreads or StoryGraph export to your library offline (no server, no catalog data)",
            discussion: """
                Reads the file here, without the server: the books come in with the file's own data and your \
                shelves, ratings, dates, review and tags. 'import FILE --watch' does the same and adds the \
                catalog's data. Importing the same file again adds nothing.
                """,
            positionals: [importFile],
            examples: ["library import goodreads_library_export.csv"]
        )

        static let changesLibrary = true

        var file: BoundValue?

        init(_ resolved: ResolvedCommand) {
            file = resolved.values(LibraryCommand.importFile).first
        }

        func run(library: BookLibrary, in context: isolated any CommandContext) async throws -> CommandOutput? {
            try await LibraryCommand.importFile(file, library: library, in: context)
        }
    }

    /// The table of shelves and tags.
    static let shelfColumns: [TableColumn] = [
        TableColumn("name", "NAME", flexible: true), TableColumn("kind", "KIND"), .number("count", "BOOKS"),
    ]

    static func shelves(library: BookLibrary) async throws -> CommandOutput {
        let shelves = try await library.shelves()
        let tags = try await library.tags()
        let rows =
            shelves.map {
                JSONValue.record([("name", $0.shelf.rawValue.json), ("kind", "shelf".json), ("count", $0.count.json)])
            }
            + tags.map { JSONValue.record([("name", $0.tag.json), ("kind", "tag".json), ("count", $0.count.json)]) }
        let value = JSONValue.record([("shelves", .array(rows))])
        return CommandOutput(
            value: value,
            view: .table(columns: shelfColumns, rowsKey: "shelves", footer: nil, empty: nil)
        )
    }

    static func stats(library: BookLibrary, width: Int?) async throws -> CommandOutput {
        let stats = try await library.stats()
        func counts(_ list: [LibraryStats.Count], _ key: String) -> JSONValue {
            .array(list.map { JSONValue.record([(key, $0.label.json), ("count", $0.count.json)]) })
        }
        let value = JSONValue.record([
            ("books", stats.books.json), ("works", stats.works.json), ("authors", stats.authors.json),
            ("readPerYear", counts(stats.readPerYear, "year")), ("readUndated", stats.readUndated.json),
            ("perShelf", counts(stats.perShelf, "shelf")),
            (
                "ratings",
                .array(
                    stats.ratings.enumerated().map {
                        JSONValue.record([("stars", ($0.offset + 1).json), ("count", $0.element.count.json)])
                    }
                )
            ),
            ("unrated", stats.unrated.json), ("pagesRead", stats.pagesRead.json),
        ])
        // One row per bar for ndjson and csv: which chart, its label, its count.
        var figures: [JSONValue] = []
        func add(_ chart: String, _ list: [LibraryStats.Count]) {
            figures += list.map {
                JSONValue.record([("chart", chart.json), ("label", $0.label.json), ("count", $0.count.json)])
            }
        }
        add("readPerYear", stats.readPerYear)
        add("perShelf", stats.perShelf)
        add("ratings", stats.ratings.enumerated().map { LibraryStats.Count(String($0.offset + 1), $0.element.count) })
        add(
            "totals",
            [
                LibraryStats.Count("books", stats.books), LibraryStats.Count("works", stats.works),
                LibraryStats.Count("authors", stats.authors), LibraryStats.Count("readUndated", stats.readUndated),
                LibraryStats.Count("unrated", stats.unrated), LibraryStats.Count("pagesRead", stats.pagesRead),
            ]
        )
        let columns = [TableColumn("chart", "CHART"), TableColumn("label", "LABEL"), .number("count", "COUNT")]
        guard stats.books > 0 else {
            return CommandOutput(
                value: value,
                view: .chart(
                    "Your library is empty: no figures yet.",
                    rows: figures,
                    columns: columns
                )
            )
        }
        let chartWidth = min(max(width ?? 80, 20), 100)
        var lines = [
            "\(stats.books) book\(stats.books == 1 ? "" : "s") (\(stats.works) work\(stats.works == 1 ? "" : "s"), \(stats.authors) author\(stats.authors == 1 ? "" : "s")), \(stats.pagesRead) pages read",
            "",
        ]
        lines.append("Books read per year")
        if stats.readPerYear.isEmpty {
            lines.append("  (no read books with a date read)")
        } else {
            lines += BarChart.render(stats.readPerYear, width: chartWidth - 2).map { "  " + $0 }
        }
        if stats.readUndated > 0 { lines.append("  (\(stats.readUndated) read without a date)") }
        lines += ["", "Books per shelf"]
        lines += BarChart.render(stats.perShelf, width: chartWidth - 2).map { "  " + $0 }
        lines += ["", "Your ratings"]
        lines += BarChart.render(stats.ratings, width: chartWidth - 2).map { "  " + $0 }
        lines.append("  (\(stats.unrated) unrated)")
        return CommandOutput(value: value, view: .chart(lines.joined(separator: "\n"), rows: figures, columns: columns))
    }

    static func export(
        _ file: BoundValue?,
        shelf: String?,
        library: BookLibrary,
        in context: isolated any CommandContext
    ) async throws -> CommandOutput? {
        let path = file?.text ?? ""
        var filter = LibraryFilter()
        if let shelf { filter.shelf = try await Self.shelf(shelf, range: nil, library: library) }
        let export = try await library.exportGoodreadsFile(filter)
        let (csv, count) = (export.csv, export.books)
        if path == "-" {
            context.output.out(csv)
            try Self.reportUnreadable(export, library: library)
            return nil
        }
        let url = context.resolvePath(path)
        do throws(PrivateFile.Failure) {
            try PrivateFile.replace(url.path, with: Array(csv.utf8))
        } catch .notARegularFile(let kind) {
            throw ShellError(
                .usage,
                "cannot export to '\(path)': it is \(kind); bts writes only regular files",
                range: file?.word.range
            )
        } catch .cannotWrite(let reason) {
            throw ShellError(.failure, "cannot write '\(path)': \(reason)", range: file?.word.range, code: .writeFailed)
        }
        try Self.reportUnreadable(export, library: library)
        let value = JSONValue.record([("file", url.path.json), ("format", "goodreads".json), ("count", count.json)])
        return CommandOutput(
            value: value,
            view: .text("Wrote \(count) book\(count == 1 ? "" : "s") to \(path) (Goodreads CSV).")
        )
    }

    /// An export that left books out of a damaged library fails (exit 1) after writing what it read.
    static func reportUnreadable(_ export: GoodreadsExportFile, library: BookLibrary) throws(LibraryError) {
        guard export.unreadable > 0 else { return }
        throw .unreadableBooks(count: export.unreadable, path: library.path.path)
    }

    static func importFile(
        _ file: BoundValue?,
        library: BookLibrary,
        in context: isolated any CommandContext
    ) async throws -> CommandOutput {
        let path = file?.text ?? ""
        let url = context.resolvePath(path)
        let parsed = try readExport(url, shownAs: path, range: file?.word.range)
        let summary = try await library.importBooks(parsed.books, from: .importFile(url.lastPathComponent))
        let problems = parsed.problems.map { JSONValue.record([("row", $0.row.json), ("problem", $0.message.json)]) }
        let value = JSONValue.record([
            ("file", url.path.json), ("format", parsed.format.rawValue.json), ("rows", parsed.books.count.json),
            ("library", summary.json), ("problems", .array(problems)),
        ])
        var views: [ResultView] = [
            .text(
                "\(parsed.format == .goodreads ? "Goodreads" : "StoryGraph") export, \(parsed.books.count) book\(parsed.books.count == 1 ? "" : "s"): library \(summary)."
            )
        ]
        if !problems.isEmpty {
            views.append(
                .table(
                    columns: [.number("row", "ROW"), TableColumn("problem", "PROBLEM", flexible: true)],
                    rowsKey: "problems",
                    footer: nil,
                    empty: nil
                )
            )
        }
        return CommandOutput(value: value, view: .sections(views))
    }

    /// Reads an export file (bounded at the import limit), or says plainly why not.
    static func readExport(_ url: URL, shownAs path: String, range: SourceRange?) throws(ShellError) -> ExportFile {
        try CSVPreflight.check(url, shownAs: path, range: range)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ShellError(.usage, "cannot read '\(path)'", range: range)
        }
        do {
            return try ExportReader.read(data)
        } catch {
            throw ShellError(.usage, "cannot import '\(path)': \(error.message)", range: range)
        }
    }
}
