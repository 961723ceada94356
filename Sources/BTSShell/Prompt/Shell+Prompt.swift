import BTSTerminal
import BooksTrackClient
import Foundation

extension Shell {
    /// The interactive prompt for the next read: `bts:<backend>> ` (coloured when output colour
    /// is on), the tightest rate-limit budget on the right when it is low — read fresh from the
    /// API's ledger, so it reflects the command that just ran — and the continuation, which says
    /// what is open (``OpenInput``: `'> `, `"> `, `${> `, or `...> ` for a block).
    /// Never opens a backend: before the first command it names the backend that will be used.
    package func interactivePrompt() async -> LinePrompt {
        var budget: PromptBudget?
        var status: RateLimitStatus?
        if let api = connection?.api, let tightest = await api.tightestBudget() {
            budget = PromptBudget(tightest)
            status = tightest
        }
        return PromptRenderer.interactive(
            backend: promptBackendName(),
            budget: budget,
            status: status,
            colour: colored(.standardOutput)
        )
    }

    /// `embedded`, a profile name, or the server's host; `?` when no backend can be chosen.
    func promptBackendName() -> String {
        guard let target = try? services.backendSession.target() else { return "?" }
        return PromptRenderer.backendName(of: target)
    }
}
