import BTSLanguage
import BooksTrackClient
import BooksTrackContract

/// `recommend [--limit N]` · `recommend --library [--limit N]`.
struct RecommendCommand: ShellCommand {
    static let result: CommandResult = .shape(.recommendations)

    static let limit = CommandSpec.limit(1...50, default: 10)
    static let library = OptionSpec(
        "library",
        short: "L",
        type: .flag,
        help: "Recommend for your library instead of this week's picks (which ignore it)"
    )

    static let configuration = CommandSpec(
        "recommend",
        group: .mission,
        summary: "This week's picks (the same for everyone), or books for your library (--library)",
        discussion: """
            Without --library: the backend's weekly picks, which do not look at your library; each says \
            whether it is already in it (inLibrary). On the embedded backend and `bts serve` the picks are \
            well-rated books of the bundled catalog (average 4.0 or more from at least 20,000 readers), drawn \
            anew each ISO week, at most one per author and per series. With --library: books like the ones you rated or shelved, computed here in the shell \
            from your library and the bundled catalog's reader shelves (goodbooks-10k, CC BY-SA 4.0), whatever \
            the backend: production's personalized endpoint ignores the user and returns the weekly picks \
            (strategy weekly_fallback). Never a book already in your library; higher ratings weigh more, \
            ratings of 1-2 push away; each pick says why ("shelved fantasy and magic, like The Hobbit you rated 5").
            """,
        options: [
            limit.spec, library, CommandSpec.columnsOption(CommandOutput.recommendationColumns + libraryColumns),
        ],
        examples: ["recommend", "recommend --limit 3", "recommend --library --limit 5"]
    )

    static let gate: CommandGate? = CommandGate(.weeklyRecommendations, scope: "weekly")

    var limit: Int
    var forLibrary: Bool

    init(_ resolved: ResolvedCommand) {
        limit = resolved[Self.limit]
        forLibrary = resolved.flag(Self.library)
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        if forLibrary { return try await Self.forLibrary(limit: limit, in: context) }
        let limit = self.limit
        // The gate covers the weekly picks only (`--library` is computed here).
        let response = try await context.call(as: context.callPolicy.gated(Self.gate)) { api in
            try await api.weeklyRecommendations(limit: limit)
        }
        var output = CommandOutput.recommendations(response.value)
        if case .embedded? = context.connection?.target { output = output.notingWeeklyPicks() }
        return await output.markingHeld(in: context)
    }
}
