import BooksTrackClient
import BooksTrackContract
import Foundation

/// What the command line asked for (`--api`, `--profile`, `--local`), before the environment
/// and config file are consulted.
package struct BackendRequest: Sendable, Hashable {
    package var apiURL: String?
    package var profile: String?
    package var forceEmbedded: Bool

    package init(apiURL: String? = nil, profile: String? = nil, forceEmbedded: Bool = false) {
        self.apiURL = apiURL
        self.profile = profile
        self.forceEmbedded = forceEmbedded
    }
}

/// The backend to talk to.
package enum BackendTarget: Sendable, Hashable {
    /// A server at a URL (a profile's, `--api`, `BTS_API_URL`).
    case remote(url: URL, token: String?, label: String, dialect: APIDialect? = nil)
    /// The in-process server over the bundled catalog.
    case embedded

    /// How `connect` and errors name it.
    package var label: String {
        switch self {
        case .remote(let url, _, let label, _):
            let shown = SecretMasking.maskURL(url.absoluteString)
            return label == shown ? label : "\(label) (\(shown))"
        case .embedded: return "embedded server"
        }
    }
}

/// Backend selection, first match wins (docs/usage.md): `--local`, `--api`, `--profile`, `BTS_API_URL`,
/// the config file's default profile, else the embedded backend.
package enum BackendSelection {
    /// Picks the target. `loadConfig` is only called when a profile is needed, so a broken
    /// config file does not stop `--api URL`.
    /// Its errors are about the command line, the environment or the config file, never the
    /// command that first needed the backend (`bts --profile nosuch -c caps` pointed a caret at `caps`).
    package static func select(
        _ request: BackendRequest,
        environment: [String: String],
        loadConfig: () throws(ShellError) -> ShellConfig
    ) throws(ShellError) -> BackendTarget {
        do throws(ShellError) {
            return try choose(request, environment: environment, loadConfig: loadConfig)
        } catch {
            var unplaced = error
            unplaced.pointsIntoSource = false
            throw unplaced
        }
    }

    private static func choose(
        _ request: BackendRequest,
        environment: [String: String],
        loadConfig: () throws(ShellError) -> ShellConfig
    ) throws(ShellError) -> BackendTarget {
        if request.forceEmbedded { return .embedded }
        if let api = request.apiURL {
            return .remote(url: try parseURL(api, origin: "--api"), token: nil, label: SecretMasking.maskURL(api))
        }
        if let name = request.profile { return try target(profile: name, config: loadConfig()) }
        if let env = environment["BTS_API_URL"], !env.isEmpty {
            return .remote(url: try parseURL(env, origin: "BTS_API_URL"), token: nil, label: SecretMasking.maskURL(env))
        }
        let config = try loadConfig()
        if let name = config.defaultProfile { return try target(profile: name, config: config) }
        return .embedded
    }

    /// A target for `connect TARGET`: a URL, a profile name, or `embedded`/`local-embedded`.
    package static func target(
        forConnect text: String,
        config: () throws(ShellError) -> ShellConfig
    ) throws(ShellError) -> BackendTarget {
        if text == "embedded" { return .embedded }
        if text.contains("://") {
            return .remote(url: try parseURL(text, origin: "connect"), token: nil, label: SecretMasking.maskURL(text))
        }
        return try target(profile: text, config: config())
    }

    static func target(profile name: String, config: ShellConfig) throws(ShellError) -> BackendTarget {
        guard let profile = config.profile(named: name) else {
            throw ShellError(
                .usage,
                "unknown profile '\(name)' (known: \(config.profileNames.joined(separator: ", ")))"
            )
        }
        return .remote(url: profile.url, token: profile.token, label: profile.name, dialect: profile.dialect)
    }

    /// Checks an http(s) URL.
    package static func parseURL(_ text: String, origin: String) throws(ShellError) -> URL {
        switch ServerURL.parseServer(text) {
        case .success(let url): return url
        case .failure(let problem): throw ShellError(.usage, "\(origin): \(problem.message)", code: .invalidURL)
        }
    }
}
