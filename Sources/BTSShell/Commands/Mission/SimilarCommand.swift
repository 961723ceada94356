import BTSLanguage
import BooksTrackClient
import BooksTrackContract

/// `similar ISBN [--limit N]` · `similar --library [--shelf S]`.
struct SimilarCommand: ShellCommand {
    static let isbnArgument = ArgumentSpec("ISBN", "The book to start from (ISBN-10 or ISBN-13)", optional: true,
                                           completion: .isbn)
    static let library = OptionSpec("library", short: "L", type: .flag,
                                    help: "Start from your library's books; leave out those you have")
    static let shelf = OptionSpec("shelf", short: "s", type: .string, valueName: "SHELF",
                                  help: "With --library: start from this shelf's books", completion: .shelf)
    static let limit = CommandSpec.limit(1...50, default: 10)

    static let configuration = CommandSpec(
        "similar", group: .mission,
        summary: "Books similar to a given book",
        discussion: """
            The source book itself is not listed. On the embedded backend and `bts serve`, similar means shelved \
            alike: the cosine of the books' reader shelves (goodbooks-10k: the 30 strongest of each book's 100 \
            most-used shelves, weighted log(1+count) x IDF), with the same author or series only breaking ties and \
            other editions of the source left out. Fails with 'not found' when the catalog has no shelves for it. \
            With --library (or --shelf), up to 10 of your library's books (highest rated first) are the \
            sources, and books you already have are left out.
            """,
        positionals: [isbnArgument],
        options: [limit.spec, library, shelf],
        examples: ["similar 9780439023481", "similar ${_.results[0].isbn} --limit 5", "similar --library --shelf read"],
        requirements: [.anyOf(["ISBN", "--library", "--shelf"]), .exclusive(["ISBN", "--library"]),
                       .exclusive(["ISBN", "--shelf"])])

    static let gate: CommandGate? = CommandGate(.similarBooks)
    static let budget: RateLimitClass? = .similar

    var words: [BoundValue]
    var limit: Int
    var fromLibrary: Bool
    var shelf: String?

    init(_ resolved: ResolvedCommand) {
        words = resolved.values(Self.isbnArgument)
        limit = resolved[Self.limit]
        shelf = resolved.string(Self.shelf)
        fromLibrary = resolved.flag(Self.library) || shelf != nil
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        if fromLibrary { return try await Self.fromLibrary(shelf: shelf, limit: limit, in: context) }
        let isbn = try ISBN.validated(words.first?.text ?? "", range: BoundValue.range(of: words))
        let limit = self.limit
        let response: APIResponse<SimilarResults>
        do {
            response = try await context.call { api in
                try await api.similar(isbn: isbn.value, limit: limit)
            }
        } catch let error where LibraryLookups.isUnreachable(error) {
            if let answer = await LibraryLookups.similar(to: isbn.value, limit: limit, in: context) { return answer }
            throw error
        }
        return await CommandOutput.similar(response.value, source: isbn.value).markingHeld(in: context)
    }
}
