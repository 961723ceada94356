import BTSLanguage
import BooksTrackClient
import BooksTrackContract

/// `recommend [--limit N]`.
struct RecommendCommand: ShellCommand {
    static let limit = CommandSpec.limit(1...50, default: 10)

    static let configuration = CommandSpec(
        "recommend", group: .mission,
        summary: "This week's book recommendations",
        discussion: "Each pick says whether it is already in your library (inLibrary).",
        options: [limit],
        examples: ["recommend", "recommend --limit 3"])

    static let gate: CommandGate? = CommandGate(.weeklyRecommendations)

    var limit: Int?

    init(_ resolved: ResolvedCommand) {
        limit = resolved.int(Self.limit)
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let limit = self.limit
        let response = try await context.call(budget: Self.budget, gate: Self.gate, command: Self.name) { api in
            try await api.weeklyRecommendations(limit: limit)
        }
        return await CommandOutput.recommendations(response.value).markingHeld(in: context)
    }
}
