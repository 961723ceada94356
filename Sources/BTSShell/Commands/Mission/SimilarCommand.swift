import BTSLanguage
import BooksTrackClient
import BooksTrackContract

/// `similar ISBN [--limit N]`.
struct SimilarCommand: ShellCommand {
    static let isbnArgument = ArgumentSpec("ISBN", "The book to start from (ISBN-10 or ISBN-13)", completion: .isbn)
    static let limit = CommandSpec.limit(1...50, default: 10)

    static let configuration = CommandSpec(
        "similar", group: .mission,
        summary: "Books similar to a given book (vector similarity)",
        discussion: "The source book itself is not listed. Fails with 'not found' when the catalog has no vector for it.",
        positionals: [isbnArgument],
        options: [limit],
        examples: ["similar 9780441172719", "similar ${_.results[0].isbn} --limit 5"])

    static let gate: CommandGate? = CommandGate(.similarBooks)
    static let budget: RateLimitClass? = .similar

    var words: [BoundValue]
    var limit: Int?

    init(_ resolved: ResolvedCommand) {
        words = resolved.values(Self.isbnArgument)
        limit = resolved.int(Self.limit)
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let isbn = try ISBN.validated(words.first?.text ?? "", range: BoundValue.range(of: words))
        let limit = self.limit
        let response = try await context.call(budget: Self.budget, gate: Self.gate, command: Self.name) { api in
            try await api.similar(isbn: isbn.value, limit: limit)
        }
        return .similar(response.value, source: isbn.value)
    }
}
