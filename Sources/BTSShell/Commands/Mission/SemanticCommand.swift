import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import Foundation

/// `semantic QUERY... [--limit N]`; shows the budget afterwards.
struct SemanticCommand: ShellCommand {
    static let result: CommandResult = .shape(.bookList)

    static let query = ArgumentSpec("QUERY", "What you are looking for, in plain words", variadic: true)
    static let limit = CommandSpec.limit(1...50, default: 20)

    static let configuration = CommandSpec(
        "semantic",
        group: .mission,
        summary: "Search by meaning (embedded backend: a sentence model over titles and shelves)",
        discussion: """
            All words form one query. The embedded backend and `bts serve` run the sentence model \
            all-MiniLM-L6-v2 in this process: your words are embedded and compared with each catalog book's \
            title, authors and readers' shelves (goodbooks-10k), embedded the same way beforehand, with a \
            popularity prior (much-read books rank higher); the catalog has no descriptions, so a plot detail no reader shelved is not \
            there to find. The model's files come from `scripts/setup`; without them semantic says so and \
            exits with status 1 (it never falls back to title words), and `bts serve` stops listing \
            semantic_search. A remote backend searches whatever it has. This endpoint has a small budget \
            (documented 5 per minute); `limits` shows what is left.
            """,
        positionals: [query],
        options: [limit.spec, CommandSpec.columnsOption(CommandOutput.scoredColumns)],
        examples: ["semantic books about a desert planet and its politics", "semantic cozy mystery --limit 5"]
    )

    static let gate: CommandGate? = CommandGate(.semanticSearch)
    static let budget: RateLimitClass? = .semantic

    var query: String
    var limit: Int

    init(_ resolved: ResolvedCommand) {
        query = resolved.strings(Self.query).joined(separator: " ")
        limit = resolved[Self.limit]
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let (query, limit) = (self.query, self.limit)
        let response = try await context.call { api in
            try await api.semantic(query, limit: limit)
        }
        let api = try await context.backend().api
        let budget = await api.budget(for: .semantic)
        if let limit = budget.limit {
            var text = "semantic budget: \(budget.remaining.map(String.init) ?? "?")/\(limit) left"
            if let reset = budget.resetAt {
                text += ", resets in \(max(0, Int(reset.timeIntervalSinceNow.rounded(.up)))) s"
            }
            context.output.dimNote(text)
        }
        return .search(response.value, query: query, kind: .semantic, limit: limit)
    }
}
