import BTSLanguage
import BooksTrackContract

/// A form of `search`: it reads what it asks in `init` and runs it as a ``SearchRun``.
protocol SearchForm: ShellCommand {
    var search: SearchRun { get }
}

extension SearchForm {
    /// Every form answers as a ``SearchRun`` does: a page of books.
    static var result: CommandResult { .shape(.bookList) }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        try await search.run(in: context)
    }
}

/// The subcommands of `search`, one type each.
extension SearchCommand {
    /// The paging options of the title and author searches, and their rule.
    static let pageOptions = [limit.spec, offset, page, all, columns]
    static let pageRequirements: [ArgumentRequirement] = [
        .exclusive(["--offset", "--page"]), .exclusive(["--all", "--offset"]), .exclusive(["--all", "--page"]),
        .exclusive(["--all", "--limit"]),
    ]

    /// `search isbn ISBN`.
    struct ByISBN: SearchForm {
        static let isbnArgument = ArgumentSpec("ISBN", "ISBN-10 or ISBN-13 (hyphens allowed)", completion: .isbn)

        static let configuration = CommandSpec(
            "isbn",
            group: .mission,
            summary: "Look up one book by ISBN-10 or ISBN-13",
            positionals: [isbnArgument],
            options: [SearchCommand.columns],
            examples: ["search isbn 9780439023481"]
        )

        var search: SearchRun

        init(_ resolved: ResolvedCommand) {
            search = SearchRun(
                .isbn(resolved.values(Self.isbnArgument)),
                resolved: resolved,
                limit: SearchCommand.limit
            )
        }
    }

    /// `search title QUERY...`.
    struct ByTitle: WordSearch {
        static let words = ArgumentSpec(
            "QUERY",
            "Title words (series and author words too)",
            variadic: true,
            completion: .title
        )
        static let configuration = pagedSpec(
            "title",
            "Search by title",
            words,
            example: "search title dune --limit 5",
            discussion: """
                The words may be in the title, the series or an author's name ('search title foundation \
                asimov'); an exact title comes first. Words that match nothing are searched again with \
                their spelling corrected, saying so on stderr ("showing results for 'hunger games'").
                """
        )
        static func request(_ text: String) -> SearchRequest { .title(text) }

        var search: SearchRun
    }

    /// `search author NAME...`.
    struct ByAuthor: WordSearch {
        static let words = ArgumentSpec("NAME", "Author name", variadic: true, completion: .author)
        static let configuration = pagedSpec(
            "author",
            "Search by author name",
            words,
            example: "search author frank herbert",
            discussion: """
                Most-rated first. A name that matches no author is searched again with its spelling \
                corrected, saying so on stderr ("showing results for 'tolkien'").
                """
        )
        static func request(_ text: String) -> SearchRequest { .author(text) }

        var search: SearchRun
    }

    /// The spec of a paged search of words.
    static func pagedSpec(
        _ name: String,
        _ summary: String,
        _ words: ArgumentSpec,
        example: String,
        discussion: String = ""
    ) -> CommandSpec {
        CommandSpec(
            name,
            group: .mission,
            summary: summary,
            discussion: discussion,
            positionals: [words],
            options: pageOptions,
            examples: [example],
            requirements: pageRequirements
        )
    }
}

/// A paged search of the words of one argument (`search title`, `search author`): blank words are
/// a usage error naming the search.
protocol WordSearch: SearchForm {
    static var words: ArgumentSpec { get }
    static func request(_ text: String) -> SearchRequest
    init(search: SearchRun)
}

extension WordSearch {
    init(_ resolved: ResolvedCommand) throws(ShellError) {
        let text = resolved.strings(Self.words).joined(separator: " ")
        if text.allSatisfy(\.isWhitespace) { throw SearchRun.empty(Self.name) }
        self.init(search: SearchRun(Self.request(text), resolved: resolved, limit: SearchCommand.limit))
    }
}
