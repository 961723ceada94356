import BTSLanguage
import BooksTrackClient
import BooksTrackContract

/// `search QUERY` · `search isbn|title|author …` · `search --title T --author A`.
struct SearchCommand: ShellCommand {
    static let isbnArgument = ArgumentSpec("ISBN", "ISBN-10 or ISBN-13 (hyphens allowed)", completion: .isbn)
    static let titleWords = ArgumentSpec("QUERY", "Title words", variadic: true, completion: .title)
    static let authorWords = ArgumentSpec("NAME", "Author name", variadic: true)
    static let query = ArgumentSpec("QUERY", "An ISBN, or title words", optional: true, variadic: true, completion: .title)
    static let titleOption = OptionSpec("title", short: "t", type: .string, valueName: "TITLE", help: "Title to search for",
                                        completion: .title)
    static let authorOption = OptionSpec("author", short: "a", type: .string, valueName: "NAME", help: "Author to search for")
    static let limit = CommandSpec.limit(1...100, default: 20)
    static let offset = OptionSpec("offset", type: .int(0...10_000), valueName: "N",
                                   help: "Skip the first N results (title and author searches; 'more' pages on)")
    static let page = OptionSpec("page", type: .int(1...1_000), valueName: "P",
                                 help: "Show page P of --limit results (title and author searches)")

    static let configuration = CommandSpec(
        "search", group: .mission,
        summary: "Find books by ISBN, title or author",
        discussion: """
            With a plain QUERY, an ISBN-looking query (10 or 13 digits, hyphens allowed, ISBN-10 may end \
            in X) is looked up by ISBN and anything else is searched as a title. A first word of 'isbn', \
            'title' or 'author' selects that search; quote it ('title') to search for the word itself. \
            --title and --author together run the advanced search.
            """,
        subcommands: [
            CommandSpec(
                "isbn", group: .mission, summary: "Look up one book by ISBN-10 or ISBN-13",
                positionals: [isbnArgument], examples: ["search isbn 9780439023481"]),
            CommandSpec(
                "title", group: .mission, summary: "Search by title",
                positionals: [titleWords], options: [limit, offset, page], examples: ["search title dune --limit 5"],
                requirements: [.exclusive(["--offset", "--page"])]),
            CommandSpec(
                "author", group: .mission, summary: "Search by author name",
                positionals: [authorWords], options: [limit, offset, page], examples: ["search author frank herbert"],
                requirements: [.exclusive(["--offset", "--page"])]),
        ],
        positionals: [query],
        options: [titleOption, authorOption, limit, offset, page],
        examples: [
            "search dune",
            "search 978-0-439-02348-1",
            "search title \"the left hand of darkness\" --limit 5",
            "search --title dune --author herbert",
        ],
        requirements: [.anyOf(["QUERY", "--title", "--author"]), .exclusive(["QUERY", "--title"]),
                       .exclusive(["--offset", "--page"])])

    static let budget: RateLimitClass? = .search

    enum Form: Sendable {
        case isbn([BoundValue])
        case title(String)
        case author(String, label: String)
        /// A plain QUERY, `--title`, `--author` or both.
        case plain(words: [BoundValue], title: String?, author: String?)
    }

    var form: Form
    var limit: Int?
    /// Results to skip (`--offset`, or `--page` × `--limit`).
    var skip: Int

    init(_ resolved: ResolvedCommand) {
        limit = resolved.int(Self.limit)
        let pageNumber = resolved.bound(Self.page) != nil ? resolved.int(Self.page) : nil
        skip = pageNumber.map { ($0 - 1) * (resolved.int(Self.limit) ?? 20) } ?? (resolved.bound(Self.offset) != nil ? resolved.int(Self.offset) ?? 0 : 0)
        switch resolved.path.dropFirst().first {
        case "isbn": form = .isbn(resolved.values(Self.isbnArgument))
        case "title": form = .title(resolved.strings(Self.titleWords).joined(separator: " "))
        case "author": form = .author(resolved.strings(Self.authorWords).joined(separator: " "), label: "search author")
        default:
            form = .plain(words: resolved.values(Self.query), title: resolved.string(Self.titleOption),
                          author: resolved.string(Self.authorOption))
        }
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        do {
            return try await runOnline(in: context)
        } catch let error where LibraryLookups.isUnreachable(error) {
            // Books already in the library are answered from it, saying so.
            if let answer = await LibraryLookups.search(libraryQuery, kind: libraryKind, shownAs: libraryText, limit: limit,
                                                        in: context) { return answer }
            throw error
        }
    }

    /// What the library is asked when the server cannot be reached.
    var libraryQuery: LibraryLookups.Query {
        switch form {
        case .isbn(let words): return .isbn(words.compactMap(\.text).joined(separator: " "))
        case .title(let query): return .text(query)
        case .author(let name, _): return .author(name)
        case .plain(let words, let title, let author):
            let query = words.compactMap(\.text).joined(separator: " ")
            if !query.isEmpty, author == nil { return ISBN.looksLikeISBN(query) ? .isbn(query) : .text(query) }
            return .advanced(title: query.isEmpty ? title : query, author: author)
        }
    }

    var libraryKind: String {
        switch libraryQuery {
        case .isbn: return "isbn"
        case .text: return "title"
        case .author: return "author"
        case .advanced: return "advanced"
        }
    }

    var libraryText: String {
        switch libraryQuery {
        case .isbn(let text), .text(let text), .author(let text): return text
        case .advanced(let title, let author): return [title, author.map { "by \($0)" }].compactMap { $0 }.joined(separator: " ")
        }
    }

    func runOnline(in context: isolated any CommandContext) async throws -> CommandOutput? {
        if let empty = emptyQuery {
            // An unset variable or `""`: the server would only say "A required parameter is missing."
            throw ShellError(.usage, "the \(empty) to search for is empty", code: .missingParameter)
        }
        switch form {
        case .isbn(let words):
            return try await searchISBN(words, in: context)
        case .title(let query):
            return try await searchTitle(query, in: context)
        case .author(let name, let label):
            let limit = self.limit
            let skip = self.skip
            let response = try await context.call(budget: Self.budget, gate: nil, command: label) { api in
                try await api.searchAuthor(name, limit: limit, offset: skip)
            }
            return remember(.search(response.value, query: name, kind: "author", offset: skip, offersMore: context.atPrompt),
                            in: context)
        case .plain(let words, let title, let author):
            if !words.isEmpty {
                let query = words.compactMap(\.text).joined(separator: " ")
                if author == nil, ISBN.looksLikeISBN(query) { return try await searchISBN(words, in: context) }
                if let author { return try await searchAdvanced(title: query, author: author, in: context) }
                return try await searchTitle(query, in: context)
            }
            if let title, author == nil { return try await searchTitle(title, in: context) }
            if let author, title == nil {
                return try await Self(form: .author(author, label: "search"), limit: limit, skip: skip).run(in: context)
            }
            return try await searchAdvanced(title: title, author: author, in: context)
        }
    }

    /// Which query is given but blank (`search title ""`), if one is.
    var emptyQuery: String? {
        func blank(_ text: String?) -> Bool { text.map { $0.allSatisfy(\.isWhitespace) } ?? false }
        switch form {
        case .isbn: return nil
        case .title(let query): return blank(query) ? "title" : nil
        case .author(let name, _): return blank(name) ? "author" : nil
        case .plain(let words, let title, let author):
            if !words.isEmpty, blank(words.compactMap(\.text).joined(separator: " ")) { return "query" }
            if blank(title) { return "title" }
            return blank(author) ? "author" : nil
        }
    }

    /// A title or author search as `more` repeats it.
    init(form: Form, limit: Int?, skip: Int) {
        self.form = form
        self.limit = limit
        self.skip = skip
    }

    /// Keeps a title or author search for `more`.
    private func remember(_ output: CommandOutput, in context: isolated any CommandContext) -> CommandOutput {
        guard let query = output.value["query"]?.stringValue, let kind = output.value["kind"]?.stringValue,
              let count = output.value["count"]?.intValue, let total = output.value["totalCount"]?.intValue else { return output }
        context.lastSearch = SearchPage(kind: kind, query: query, limit: limit ?? 20, offset: skip, count: count, total: total)
        return output
    }

    func searchISBN(_ words: [BoundValue], in context: isolated any CommandContext) async throws -> CommandOutput {
        let text = words.compactMap(\.text).joined(separator: " ")
        let isbn = try ISBN.validated(text, range: BoundValue.range(of: words))
        let response = try await context.call(budget: Self.budget, gate: nil, command: "search isbn") { api in
            try await api.searchISBN(isbn.value)
        }
        // The one rule for "nothing found" (README, Exit codes): a command naming one book fails
        // with exit 1 when the server does not know it, as `similar` and `enrich` do; searches
        // that match nothing succeed with an empty list.
        guard !response.value.items.isEmpty else {
            throw ShellError(.failure, "No book with ISBN \(isbn.value) in the catalog.",
                             range: BoundValue.range(of: words), code: .notFound)
        }
        return .search(response.value, query: isbn.value, kind: "isbn")
    }

    func searchTitle(_ query: String, in context: isolated any CommandContext) async throws -> CommandOutput {
        let limit = self.limit
        let skip = self.skip
        let response = try await context.call(budget: Self.budget, gate: nil, command: "search title") { api in
            try await api.searchTitle(query, limit: limit, offset: skip)
        }
        return remember(.search(response.value, query: query, kind: "title", offset: skip, offersMore: context.atPrompt),
                        in: context)
    }

    func searchAdvanced(title: String?, author: String?, in context: isolated any CommandContext) async throws -> CommandOutput {
        let limit = self.limit
        let response = try await context.call(budget: Self.budget, gate: nil, command: "search") { api in
            try await api.searchAdvanced(title: title, author: author, limit: limit)
        }
        let query = [title, author.map { "by \($0)" }].compactMap { $0 }.joined(separator: " ")
        return .search(response.value, query: query, kind: "advanced")
    }
}
