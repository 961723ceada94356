/// The rate-limit budget shown at the right of the prompt: the text comes from the ledger's
/// formatter (`semantic 1/5 ↻42s`), the numbers decide whether it is worth showing.
public struct PromptBudget: Sendable, Hashable {
    /// What the prompt shows, e.g. `semantic 1/5 ↻42s`.
    public var text: String
    /// The fraction of the budget left, 0…1 (nil: unknown).
    public var fractionLeft: Double?
    /// Requests left (nil: unknown).
    public var remaining: Int?
    /// The server said to stop (a 429 is in force).
    public var isBlocked: Bool

    public init(text: String, fractionLeft: Double?, remaining: Int? = nil, isBlocked: Bool = false) {
        self.text = text
        self.fractionLeft = fractionLeft
        self.remaining = remaining
        self.isBlocked = isBlocked
    }

    /// Whether the budget is low enough to show: blocked, spent, or at most `threshold` of it left.
    public func isLow(threshold: Double) -> Bool {
        if isBlocked || remaining == 0 { return true }
        guard let fractionLeft else { return false }
        return fractionLeft <= threshold
    }

    /// Whether nothing is left (shown in red rather than yellow).
    public var isSpent: Bool { isBlocked || remaining == 0 || fractionLeft == 0 }
}
