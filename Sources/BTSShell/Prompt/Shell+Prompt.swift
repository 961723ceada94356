import BooksTrackClient
import Foundation

extension Shell {
    /// The interactive prompt for the next read: `bts:<backend>> ` (coloured when output colour
    /// is on), the tightest rate-limit budget on the right when it is low — read fresh from the
    /// API's ledger, so it reflects the command that just ran — and the `...> ` continuation.
    /// Never opens a backend: before the first command it names the backend that will be used.
    public func interactivePrompt() async -> LinePrompt {
        var budget: PromptBudget?
        if let api = connection?.api, let status = await api.tightestBudget() {
            budget = PromptBudget(status)
        }
        return PromptRenderer.render(backend: promptBackendName(), budget: budget, colour: colored(.standardOutput))
            .linePrompt
    }

    /// `embedded`, a profile name, or the server's host.
    func promptBackendName() -> String {
        let target: BackendTarget
        if let connection {
            target = connection.target
        } else if let selected = try? BackendSelection.select(
            options.backend, environment: options.environment, loadConfig: { () throws(ShellError) in try loadConfig() }) {
            target = selected
        } else {
            return "?"
        }
        switch target {
        case .embedded:
            return "embedded"
        case .remote(let url, _, let label):
            return PromptRenderer.backendName(url: url, profile: label.contains("://") ? nil : label)
        }
    }
}
