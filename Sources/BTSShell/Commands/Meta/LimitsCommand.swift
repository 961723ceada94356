import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import Foundation

/// `limits`: every budget with a bar and the time to its reset.
struct LimitsCommand: ShellCommand {
    static let result: CommandResult = .shape(.limits)

    static let configuration = CommandSpec(
        "limits",
        group: .meta,
        summary: "Show the rate-limit budgets with reset countdowns",
        examples: ["limits"]
    )

    init(_ resolved: ResolvedCommand) {}

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let api = try await context.backend().api
        if await api.capabilities == nil, let failure = await api.lastConnectError, failure.category == .network {
            context.output.warn(CapabilityAbsence(failure).limitsNote)
        }
        let now = Date()
        let rows = await api.budgets().map { item -> JSONValue in
            let (name, budget) = item
            let until = [budget.blockedUntil, budget.resetAt].compactMap { $0 }.max()
            let resets = until.map { max(0, Int($0.timeIntervalSince(now).rounded(.up))) }
            return .record([
                ("class", name.rawValue.json), ("remaining", (budget.blockedUntil != nil ? 0 : budget.remaining).json),
                ("limit", budget.limit.json), ("resetsInSeconds", resets.json), ("source", budget.source.rawValue.json),
                ("blocked", .bool(budget.blockedUntil != nil)),
            ])
        }
        let value = JSONValue.record([("budgets", .array(rows))])
        let columns = [
            TableColumn("class", "CLASS"), TableColumn("remaining", "BUDGET", format: .bar(total: "limit")),
            .number("remaining", "LEFT"), .number("limit", "LIMIT"), .number("resetsInSeconds", "RESET (s)"),
            TableColumn("source", "SOURCE"),
        ]
        return CommandOutput(value: value, view: .table(columns: columns, rowsKey: "budgets", footer: nil, empty: nil))
    }
}
