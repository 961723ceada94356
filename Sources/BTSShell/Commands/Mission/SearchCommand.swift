import BTSLanguage
import BooksTrackClient
import BooksTrackContract

/// `search QUERY` · `search --title T --author A`; its subcommands `search isbn|title|author …`
/// are types of their own (``SearchCommand/ByISBN``, ``SearchCommand/ByTitle``,
/// ``SearchCommand/ByAuthor``). Every form runs as a ``SearchRun``.
struct SearchCommand: SearchForm {
    static let query = ArgumentSpec(
        "QUERY",
        "An ISBN, or title and author words",
        optional: true,
        variadic: true,
        completion: .title
    )
    static let titleOption = OptionSpec(
        "title",
        short: "t",
        type: .string,
        valueName: "TITLE",
        help: "Title to search for",
        completion: .title
    )
    static let authorOption = OptionSpec(
        "author",
        short: "a",
        type: .string,
        valueName: "NAME",
        help: "Author to search for"
    )
    static let limit = CommandSpec.limit(SearchPageLimits.limit, default: SearchPageLimits.defaultLimit)
    static let offset = OptionSpec(
        "offset",
        type: .int(SearchPageLimits.offset),
        valueName: "N",
        help: "Skip the first N results (title and author searches; 'more' pages on)"
    )
    static let page = OptionSpec(
        "page",
        type: .int(1...1_000),
        valueName: "P",
        help: "Show page P of --limit results (title and author searches)"
    )
    static let all = OptionSpec(
        "all",
        type: .flag,
        help: """
            Follow the pages and return every match in one list (title and author searches; pages of \
            \(SearchPageLimits.limit.upperBound), one budget call each, up to \(SearchRun.allBound) results: \
            servers page no further than offset \(SearchPageLimits.offset.upperBound))
            """
    )
    /// `--columns`, of every form of `search` and of `more`.
    static let columns = CommandSpec.columnsOption(CommandOutput.bookColumns + CommandOutput.scoredColumns)

    static let configuration = CommandSpec(
        "search",
        group: .mission,
        summary: "Find books by ISBN, title or author",
        discussion: """
            With a plain QUERY, an ISBN-looking query (10 or 13 digits, hyphens allowed, ISBN-10 may end \
            in X) is looked up by ISBN and anything else is searched as free-form words, as 'search title' \
            does: each word may be in the title, the series or an author's name, so title and author \
            go in one query ('search the shining stephen king'); an exact title comes first, and a query \
            that names an author lists that author's books before books that mention the name. A title \
            or author query that matches nothing is searched again with its spelling corrected, and a \
            line on stderr says what was searched ("showing results for 'tolkien'"); a query with \
            matches of its own is never corrected. A first word of 'isbn', 'title' or 'author' selects \
            that search; quote it ('title') to search for the word itself. --title and --author \
            together run the advanced search (title words in titles only, no correction).
            """,
        positionals: [query],
        options: [titleOption, authorOption, limit.spec, offset, page, all, columns],
        examples: [
            "search dune",
            "search foundation asimov",
            "search 978-0-439-02348-1",
            "search title \"the left hand of darkness\" --limit 5",
            "search --title dune --author herbert",
        ],
        requirements: [.anyOf(["QUERY", "--title", "--author"]), .exclusive(["QUERY", "--title"])] + pageRequirements
    )

    static let subcommands: [any ShellCommand.Type] = [ByISBN.self, ByTitle.self, ByAuthor.self]

    static let budget: RateLimitClass? = .search

    var search: SearchRun

    init(_ resolved: ResolvedCommand) throws(ShellError) {
        let words = resolved.values(Self.query)
        let title = resolved.string(Self.titleOption)
        let author = resolved.string(Self.authorOption)
        // An unset variable or `""`: the server would only say "A required parameter is missing."
        func blank(_ text: String?) -> Bool { text.map { $0.allSatisfy(\.isWhitespace) } ?? false }
        let text = words.compactMap(\.text).joined(separator: " ")
        if !words.isEmpty, blank(text) { throw SearchRun.empty("query") }
        if blank(title) { throw SearchRun.empty("title") }
        if blank(author) { throw SearchRun.empty("author") }
        let request: SearchRequest
        if !words.isEmpty {
            if author == nil, ISBN.looksLikeISBN(text) {
                request = .isbn(words)
            } else if let author {
                request = .advanced(title: text, author: author)
            } else {
                request = .title(text)
            }
        } else if let title, author == nil {
            request = .title(title)
        } else if let author, title == nil {
            request = .author(author)
        } else {
            request = .advanced(title: title, author: author)
        }
        search = SearchRun(request, resolved: resolved, limit: Self.limit)
        if search.pagesAll, case .isbn = request {
            throw ShellError(
                .usage,
                "--all follows the pages of a title or author search; an ISBN names one book",
                code: .usage
            )
        }
        if search.pagesAll, case .advanced = request {
            throw ShellError(
                .usage,
                "--all follows the pages of a title or author search; --title with --author is one page",
                code: .usage
            )
        }
        // `--title T` or `--author A` alone asks the library as the advanced search does.
        if words.isEmpty { search.offline = .advanced(title: title, author: author) }
    }
}
