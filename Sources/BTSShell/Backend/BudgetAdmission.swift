import BooksTrackClient
import BooksTrackContract
import Foundation

/// Admission to a rate-limit budget before a call: when the client's ledger says the budget is
/// spent, wait for its reset with a countdown on stderr (interruptible), or fail with exit 5 when
/// waiting is off (`set wait off`, `--no-wait`).
struct BudgetAdmission {
    var output: ShellOutput

    func admit(_ budget: RateLimitClass, api: BooksTrackAPI) async throws {
        while case .wait(let delay) = await api.admission(for: budget) {
            let seconds = Int(
                (Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18).rounded(.up)
            )
            guard output.settings.wait else {
                throw ShellError(
                    .rateLimited,
                    "Too many requests: the \(budget.rawValue) budget is spent and resets in \(seconds) s (waiting is off: 'set wait on' to wait)",
                    code: .rateLimitExceeded
                )
            }
            try await countdown(seconds: seconds, label: "the \(budget.rawValue) budget")
        }
    }

    /// A visible countdown on stderr, redrawn in place on a terminal. Cancelling it (Ctrl-C) throws.
    func countdown(seconds: Int, label: String) async throws {
        let terminal = output.redrawsProgress
        if !terminal, output.showsProgress {
            output.note("rate limited: waiting \(seconds) s for \(label)… (Ctrl-C to stop)")
        }
        // Cleared however it ends: after a Ctrl-C, "interrupted" printed onto the countdown's line.
        defer { if terminal { output.redraw("") } }
        var left = seconds
        while left > 0 {
            if terminal { output.redraw("rate limited: waiting \(left) s for \(label)… (Ctrl-C to stop)") }
            try await Task.sleep(for: .seconds(1))
            left -= 1
        }
    }
}

extension BudgetAdmission {
    /// Says on stderr what a command of many calls will spend before it spends it, when that is
    /// most of the class's budget (more than half its limit, or more than is left): "similar
    /// --library: up to 10 similar requests (budget 8/10 left); cached answers spend none".
    static func announce(
        _ requests: Int,
        of budget: RateLimitClass?,
        command: String,
        in context: isolated any CommandContext
    ) async throws {
        guard let budget, requests > 1 else { return }
        let state = try await context.backend().api.budget(for: budget)
        guard let limit = state.limit, limit > 0 else { return }
        let left = state.remaining ?? limit
        guard requests * 2 > limit || requests > left else { return }
        var text = "\(command): up to \(requests) \(budget.rawValue) requests (budget \(left)/\(limit) left"
        if requests > left { text += "; it will wait for the budget's reset" }
        context.output.note(text + "); cached answers spend none")
    }
}
