import BTSTerminal
import BooksTrackClient
import Foundation

extension PromptBudget {
    /// The prompt form of the ledger's tightest budget (``BooksTrackAPI/tightestBudget(includeFull:)``),
    /// using its formatter (`semantic 1/5 ↻42s`).
    package init(_ status: RateLimitStatus, now: Date = Date()) {
        self.init(
            text: status.formatted(now: now),
            fractionLeft: status.budget.fractionLeft,
            remaining: status.budget.remaining,
            isBlocked: status.budget.blockedUntil.map { $0 > now } ?? false
        )
    }
}

extension PromptRenderer {
    /// The prompts for the shell's current backend and the API's tightest budget (read fresh, so
    /// the prompt after a command shows what that command spent).
    package static func render(
        api: BooksTrackAPI,
        backend: String,
        colour: Bool,
        lowThreshold: Double = defaultLowThreshold
    ) async -> Rendered {
        let budget = await api.tightestBudget().map { PromptBudget($0) }
        return render(backend: backend, budget: budget, colour: colour, lowThreshold: lowThreshold)
    }

    /// The right prompt of `status` at any later moment: the countdown runs down, and once the
    /// window resets (or the block ends) the budget is whole again and nothing is shown.
    package static func liveRight(
        _ status: RateLimitStatus,
        colour: Bool,
        lowThreshold: Double = defaultLowThreshold
    ) -> @Sendable (Date) -> String? {
        { now in
            let until = [status.budget.blockedUntil, status.budget.resetAt].compactMap { $0 }.max()
            if let until, until <= now { return nil }
            return render(
                backend: "",
                budget: PromptBudget(status, now: now),
                colour: colour,
                lowThreshold: lowThreshold
            )
            .right
        }
    }
}
