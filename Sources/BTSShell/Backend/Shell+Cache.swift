import BooksTrackClient
import BooksTrackContract
import Foundation

/// The response cache as the session sees it: `--no-cache` for one command, the note and the JSON
/// fields of an answer given offline, and the cache of the current backend for `cache`.
extension Shell {
    /// Runs one command's work with `--no-cache` applied when it was given.
    func applyingCacheOption<T: Sendable>(
        _ resolved: ResolvedCommand,
        _ body: () async throws -> T
    ) async throws -> T {
        try await BooksTrackAPI.$bypassesCache.withValue(resolved.flag(CommandRegistry.noCacheOption)) {
            try await body()
        }
    }

    /// An answer the disk cache gave because the server could not be reached: one line on stderr
    /// ("offline (connection refused): answered from the cache, 3 h old"), and its age kept for the
    /// command's JSON (``OfflineAnswer/annotating(_:age:)``).
    func noteOffline(_ info: ResponseInfo) {
        guard case .offline(let age, let reason) = info.source else { return }
        warn("offline (\(reason)): answered from the cache, \(OfflineAnswer.ageText(age)) old")
        currentMetrics.offlineAge = max(currentMetrics.offlineAge ?? .zero, age)
    }

    /// Whether a call of the running command timed out.
    var serverTimedOut: Bool { currentMetrics.serverTimedOut }

    /// The response cache of the backend the session uses (opened or not).
    func responseCache() throws(ShellError) -> (backend: String, directory: URL, cache: ResponseDiskCache?) {
        let target = try services.backendSession.target()
        let directory = options.backendOptions.cacheDirectory
        guard case .remote(let url, let token, _, _) = target else { return (target.label, directory, nil) }
        let backend = ResponseDiskCache.backendName(url, bearerToken: token)
        return (target.label, directory, ResponseDiskCache(directory: directory, backend: backend))
    }
}
