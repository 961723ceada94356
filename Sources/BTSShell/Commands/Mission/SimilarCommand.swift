import BTSLanguage
import BooksTrackCatalog
import BooksTrackClient
import BooksTrackContract

/// `similar ISBN|TITLE... [--limit N]` · `similar --library [--shelf S]`.
struct SimilarCommand: ShellCommand {
    static let result: CommandResult = .shape(.similarList)

    static let book = ArgumentSpec(
        "BOOK",
        "The book to start from: its ISBN, or words of its title (the best title match)",
        optional: true,
        variadic: true,
        completion: .isbn
    )
    static let library = OptionSpec(
        "library",
        short: "L",
        type: .flag,
        help: "Start from your library's books; leave out those you have"
    )
    static let shelf = OptionSpec(
        "shelf",
        short: "s",
        type: .string,
        valueName: "SHELF",
        help: "With --library: start from this shelf's books",
        completion: .shelf
    )
    static let limit = CommandSpec.limit(1...50, default: 10)

    static let configuration = CommandSpec(
        "similar",
        group: .mission,
        summary: "Books similar to a given book",
        discussion: """
            The source book itself is not listed. On the embedded backend and `bts serve`, similar means shelved \
            alike: the cosine of the books' reader shelves (goodbooks-10k: the 30 strongest of each book's 100 \
            most-used shelves, weighted log(1+count) x IDF), with the same author or series only breaking ties; \
            at most 3 in 10 (rounded up) are by the source's own author or in its series (the next volume of \
            the series first), and as many by any other one author; other editions of the source and the sets that hold it (boxed sets, omnibuses, \
            two-in-one volumes) are left out. Fails with 'not found' when the catalog has no shelves for it. \
            BOOK is an ISBN when it looks like one (as for `search`); other words are a title, and the first \
            book a title search finds with an ISBN is the source (one more request, from the search budget; \
            the footer and `sourceTitle` name it; for an ISBN, the embedded backend names it from its catalog). With --library (or --shelf), up to 10 of your library's \
            books (highest rated first) are the sources, and books you already have are left out.
            """,
        positionals: [book],
        options: [
            limit.spec, library, shelf, CommandSpec.columnsOption(CommandOutput.similarColumns + libraryColumns),
        ],
        examples: [
            "similar 9780439023481", "similar the left hand of darkness --limit 5", "similar ${_.results[0].isbn}",
            "similar --library --shelf read",
        ],
        requirements: [
            .anyOf(["BOOK", "--library", "--shelf"]), .exclusive(["BOOK", "--library"]),
            .exclusive(["BOOK", "--shelf"]),
        ]
    )

    static let gate: CommandGate? = CommandGate(.similarBooks)
    static let budget: RateLimitClass? = .similar

    var words: [BoundValue]
    var limit: Int
    var fromLibrary: Bool
    var shelf: String?

    init(_ resolved: ResolvedCommand) {
        words = resolved.values(Self.book)
        limit = resolved[Self.limit]
        shelf = resolved.string(Self.shelf)
        fromLibrary = resolved.flag(Self.library) || shelf != nil
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        if fromLibrary { return try await Self.fromLibrary(shelf: shelf, limit: limit, in: context) }
        let text = words.compactMap(\.text).joined(separator: " ")
        let range = BoundValue.range(of: words)
        let source: (isbn: String, title: String?)
        if ISBN.looksLikeISBN(text) {
            source = (try ISBN.validated(text, range: range).value, nil)
        } else {
            guard !text.allSatisfy(\.isWhitespace) else {
                throw ShellError(.usage, "the book to start from is empty", range: range, code: .missingParameter)
            }
            do {
                source = try await Self.bookTitled(text, range: range, in: context)
            } catch let error where LibraryLookups.isUnreachable(error) {
                // A book of yours with that title: your books in its series or by its author, as for an ISBN.
                if let isbn = await LibraryLookups.isbn(titled: text, in: context),
                    let answer = await LibraryLookups.similar(to: isbn, limit: limit, in: context)
                {
                    return answer
                }
                throw error
            }
        }
        let limit = self.limit
        let response: APIResponse<SimilarResults>
        do {
            response = try await context.call { api in
                try await api.similar(isbn: source.isbn, limit: limit)
            }
        } catch let error where LibraryLookups.isUnreachable(error) {
            if let answer = await LibraryLookups.similar(to: source.isbn, limit: limit, in: context) { return answer }
            throw error
        }
        let title = source.title ?? Self.knownTitle(of: source.isbn, in: context)
        return await CommandOutput.similar(response.value, source: source.isbn, sourceTitle: title)
            .markingHeld(in: context)
    }

    /// The title of the book an ISBN names, for the footer, where knowing it costs no request: the
    /// embedded backend's catalog (open already, its server answering this command). Nil elsewhere.
    static func knownTitle(of isbn: String, in context: isolated any CommandContext) -> String? {
        guard context.connection?.server != nil, let catalog = try? context.catalog(),
            let book = try? catalog.book(isbn13: ISBN(isbn)?.isbn13 ?? isbn)
        else { return nil }
        return book.title
    }

    /// The ISBN and title of the first book a title search for `title` finds with an ISBN: a title
    /// search under the search budget, behind `similar`'s own gate.
    static func bookTitled(
        _ title: String,
        range: SourceRange?,
        in context: isolated any CommandContext
    ) async throws -> (isbn: String, title: String?) {
        let found = try await context.call(as: context.callPolicy.spending(.search)) { api in
            try await api.searchTitle(title, limit: 10)
        }
        guard let book = found.value.items.first(where: { $0.isbn != nil }), let isbn = book.isbn else {
            throw ShellError(
                .failure,
                "No book titled like '\(title)' in the catalog (search title \(title) to look).",
                range: range,
                code: .notFound
            )
        }
        return (isbn, book.title)
    }
}
