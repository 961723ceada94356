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
    /// command's JSON (`annotatingOffline`).
    func noteOffline(_ info: ResponseInfo) {
        guard case .offline(let age, let reason) = info.source else { return }
        warn("offline (\(reason)): answered from the cache, \(Self.ageText(age)) old")
        currentMetrics.offlineAge = max(currentMetrics.offlineAge ?? .zero, age)
    }

    /// The command's JSON object with `answeredBy: "cache"` and `cacheAgeSeconds` when one of its
    /// answers came from the disk cache offline (as a library answer carries `answeredBy: "library"`).
    func annotatingOffline(_ output: CommandOutput) -> CommandOutput {
        guard let age = currentMetrics.offlineAge, case .object = output.value, output.value["answeredBy"] == nil
        else { return output }
        var annotated = output
        annotated.value = output.value.adding("answeredBy", "cache".json)
            .adding("cacheAgeSeconds", Int(age.components.seconds).json)
        return annotated
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

    /// `45 s`, `12 min`, `3 h`, `2 d`.
    static func ageText(_ age: Duration) -> String {
        let seconds = Int(age.components.seconds)
        switch seconds {
        case ..<60: return "\(seconds) s"
        case ..<3600: return "\(seconds / 60) min"
        case ..<86_400: return "\(seconds / 3600) h"
        default: return "\(seconds / 86_400) d"
        }
    }
}
