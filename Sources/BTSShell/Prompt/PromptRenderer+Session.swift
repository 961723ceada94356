import BTSTerminal
import BooksTrackClient
import Foundation

extension PromptRenderer {
    /// The interactive prompt: `bts:<backend>> ` (coloured with `colour`), `budget` on the right
    /// when it is low (live from `status`), and the continuation, which says what is open
    /// (``OpenInput``: `'> `, `"> `, `${> `, or `...> ` for a block).
    static func interactive(
        backend: String,
        budget: PromptBudget?,
        status: RateLimitStatus?,
        colour: Bool
    ) -> LinePrompt {
        var prompt = render(backend: backend, budget: budget, colour: colour).linePrompt
        let continuations = Dictionary(
            uniqueKeysWithValues: OpenInput.allCases.map { open in
                (open, continuation(marker: open.marker, backend: backend, colour: colour))
            }
        )
        let block = prompt.continuation
        prompt.continuationAfter = { pending in OpenInput.of(pending).flatMap { continuations[$0] } ?? block }
        if let status, prompt.right != nil {
            prompt.liveRight = liveRight(status, colour: colour)
        }
        return prompt
    }

    /// The prompt's name of `target`: `embedded`, a profile name, or the server's host.
    static func backendName(of target: BackendTarget) -> String {
        switch target {
        case .embedded:
            return "embedded"
        case .remote(let url, _, let label, _):
            return backendName(
                url: url,
                profile: label.contains("://") ? nil : label,
                builtIn: BackendProfile.builtInNamesByURL
            )
        }
    }
}
