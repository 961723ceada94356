import BooksTrackClient
import Foundation

extension PromptBudget {
    /// The prompt form of the ledger's tightest budget (``BooksTrackAPI/tightestBudget(includeFull:)``),
    /// using its formatter (`semantic 1/5 ↻42s`).
    public init(_ status: RateLimitStatus, now: Date = Date()) {
        self.init(text: status.formatted(now: now), fractionLeft: status.budget.fractionLeft,
                  remaining: status.budget.remaining, isBlocked: status.budget.blockedUntil.map { $0 > now } ?? false)
    }
}

extension PromptRenderer {
    /// The prompts for the shell's current backend and the API's tightest budget (read fresh, so
    /// the prompt after a command shows what that command spent).
    public static func render(api: BooksTrackAPI, backend: String, colour: Bool,
                              lowThreshold: Double = defaultLowThreshold) async -> Rendered {
        let budget = await api.tightestBudget().map { PromptBudget($0) }
        return render(backend: backend, budget: budget, colour: colour, lowThreshold: lowThreshold)
    }
}
