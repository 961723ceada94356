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
        let colour = colored(.standardOutput)
        let backend = promptBackendName()
        var prompt = PromptRenderer.render(backend: backend, budget: budget, colour: colour).linePrompt
        let continuations = Dictionary(
            uniqueKeysWithValues: OpenInput.allCases.map { open in
                (open, PromptRenderer.continuation(marker: open.marker, backend: backend, colour: colour))
            }
        )
        let block = prompt.continuation
        prompt.continuationAfter = { pending in OpenInput.of(pending).flatMap { continuations[$0] } ?? block }
        if let status, prompt.right != nil {
            prompt.liveRight = PromptRenderer.liveRight(status, colour: colour)
        }
        return prompt
    }

    /// `embedded`, a profile name, or the server's host.
    func promptBackendName() -> String {
        guard let target = try? services.backendSession.target() else { return "?" }
        switch target {
        case .embedded:
            return "embedded"
        case .remote(let url, _, let label, _):
            return PromptRenderer.backendName(
                url: url,
                profile: label.contains("://") ? nil : label,
                builtIn: BackendProfile.builtInNamesByURL
            )
        }
    }
}
