import BooksTrackClient
import BooksTrackContract

extension CommandGate {
    /// Refuses `command` when this gate's feature is off on the server, without any request (exit 1).
    func require(command: String, api: BooksTrackAPI) async throws(ShellError) {
        if case .unavailable(let reason) = await api.availability(of: feature) {
            throw ShellError(
                .failure,
                "'\(command)' is not available on this server: \(reason)",
                code: .featureNotAvailable
            )
        }
    }
}
