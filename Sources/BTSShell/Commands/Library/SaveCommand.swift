import BTSLanguage
import BooksTrackContract
import BooksTrackLibrary

/// `save [--shelf S]`: the books of the last result (`$_`) into the library.
struct SaveCommand: ShellCommand {
    static let result: CommandResult = .leavesResult

    static let shelf = OptionSpec(
        "shelf",
        short: "s",
        type: .string,
        valueName: "SHELF",
        help:
            "The shelf the books go on, books already there included (without it: new books go on to-read, books already there keep theirs)",
        completion: .shelf
    )

    static let configuration = CommandSpec(
        "save",
        group: .library,
        summary: "Save the books of the last result into your library",
        discussion: """
            Takes every book in $_ (the result of search, similar, semantic, recommend, enrich, results or \
            library commands) and adds it to your library, merged by ISBN: a book already there only gains \
            missing data, never loses your rating or notes, and keeps its shelf unless --shelf names one. \
            A --shelf name a typo away from an existing shelf ('reed') is refused with the nearest one. Reports how many were created, updated \
            or already there: a sentence on a terminal, JSON in a pipe (saved, library, the books and the shelf). \
            $_ stays the saved books.
            """,
        options: [shelf],
        examples: [
            "search isbn 9780439023481", "save", "search title dune --limit 3", "save --shelf currently-reading",
        ]
    )

    var shelf: String?
    var shelfRange: SourceRange?

    init(_ resolved: ResolvedCommand) {
        shelf = resolved.string(Self.shelf)
        shelfRange = resolved.bound(Self.shelf)?.value?.word.range
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let result = context.lastResult
        let books = BookData.books(in: result)
        guard !books.isEmpty else {
            let what = result == .null ? "there is no last result yet" : "the last result has no books"
            throw ShellError(
                .failure,
                "nothing to save: \(what) (run search, similar, semantic, recommend or enrich first)",
                code: .nothingToSave
            )
        }
        let library = try context.library()
        var named: Shelf?
        if let shelf { named = try await LibraryCommand.shelf(shelf, range: shelfRange, library: library) }
        let summary: SaveSummary
        do {
            summary = try await library.save(
                books,
                from: Self.provenance(of: result),
                shelf: named ?? .toRead,
                movingStored: named != nil
            )
        } catch {
            throw ShellError(error)
        }
        context.libraryChanged()
        // The confirmation is the result: a terminal reads the sentence, a pipe the same facts as JSON.
        let value = JSONValue.record([
            ("saved", books.count.json), ("library", summary.json), ("shelf", named?.rawValue.json),
            (
                "books",
                .array(
                    books.map { book in
                        .record([
                            ("isbn", book.isbn13.json), ("title", book.title.json), ("authors", book.authors.json),
                        ])
                    }
                )
            ),
        ])
        return CommandOutput(
            value: value,
            view: .text("Saved \(books.count) book\(books.count == 1 ? "" : "s"): library \(summary)."),
            setsResult: false
        )
    }

    /// Where the books came from, read from the result's shape.
    static func provenance(of result: JSONValue) -> Provenance {
        if let source = result["sourceIsbn"]?.stringValue { return .similar(to: source) }
        if let week = result["weekOf"]?.stringValue { return .recommendation(week) }
        if let kind = result["kind"]?.stringValue, let query = result["query"]?.stringValue {
            return kind == "semantic" ? .semantic(query) : .search(query)
        }
        if result["provider"] != nil || result["enrichedAt"] != nil {
            return .enrichment(result["provider"]?.stringValue ?? "")
        }
        if let job = result["jobId"]?.stringValue { return .importJob(job) }
        return .search()
    }
}

extension ErrorCode {
    /// `save` with no books in `$_`.
    static let nothingToSave: ErrorCode = "NOTHING_TO_SAVE"
}
