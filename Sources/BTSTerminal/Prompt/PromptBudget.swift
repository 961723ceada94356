/// The rate-limit budget shown at the right of the prompt: the text comes from the ledger's
/// formatter (`semantic 1/5 ↻42s`), the numbers decide whether it is worth showing.
package struct PromptBudget: Sendable, Hashable {
    /// What the prompt shows, e.g. `semantic 1/5 ↻42s`.
    package var text: String
    /// The fraction of the budget left, 0…1 (nil: unknown).
    package var fractionLeft: Double?
    /// Requests left (nil: unknown).
    package var remaining: Int?
    /// The server said to stop (a 429 is in force).
    package var isBlocked: Bool

    package init(text: String, fractionLeft: Double?, remaining: Int? = nil, isBlocked: Bool = false) {
        self.text = text
        self.fractionLeft = fractionLeft
        self.remaining = remaining
        self.isBlocked = isBlocked
    }

    /// Whether the budget is low enough to show: blocked, spent, or at most `threshold` of it left.
    package func isLow(threshold: Double) -> Bool {
        if isBlocked || remaining == 0 { return true }
        guard let fractionLeft else { return false }
        return fractionLeft <= threshold
    }

    /// Whether nothing is left (shown in red rather than yellow).
    package var isSpent: Bool { isBlocked || remaining == 0 || fractionLeft == 0 }
}
