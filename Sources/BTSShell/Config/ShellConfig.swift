import BooksTrackClient
import Foundation
import TOMLKit
#if canImport(Glibc)
import Glibc
#endif

/// A named backend: a URL and an optional bearer token.
public struct BackendProfile: Sendable, Hashable {
    public var name: String
    public var url: URL
    public var token: String?

    public init(name: String, url: URL, token: String? = nil) {
        self.name = name
        self.url = url
        self.token = token
    }

    /// `production`, `staging`, `local` (SHELL.md).
    public static let builtIn: [BackendProfile] = [
        BackendProfile(name: "production", url: URL(string: "https://api.oooefam.net") ?? URL(fileURLWithPath: "/")),
        BackendProfile(name: "staging", url: URL(string: "https://staging-api.oooefam.net") ?? URL(fileURLWithPath: "/")),
        BackendProfile(name: "local", url: URL(string: "http://localhost:8787") ?? URL(fileURLWithPath: "/")),
    ]
}

/// The config file `$XDG_CONFIG_HOME/bts/config.toml`:
///
/// ```toml
/// default_profile = "staging"
///
/// [profiles.staging]
/// url = "https://staging-api.oooefam.net"
/// token = "…"          # a file holding a token must be mode 0600
/// ```
public struct ShellConfig: Sendable, Hashable {
    public var defaultProfile: String?
    /// Profiles of the file (they override built-in profiles of the same name).
    public var profiles: [String: BackendProfile]

    public init(defaultProfile: String? = nil, profiles: [String: BackendProfile] = [:]) {
        self.defaultProfile = defaultProfile
        self.profiles = profiles
    }

    /// A profile by name: the file's, else a built-in one.
    public func profile(named name: String) -> BackendProfile? {
        profiles[name] ?? BackendProfile.builtIn.first { $0.name == name }
    }

    /// Every profile name (for completion and messages).
    public var profileNames: [String] {
        Array(Set(profiles.keys).union(BackendProfile.builtIn.map(\.name))).sorted()
    }

    private struct FileModel: Decodable {
        struct Profile: Decodable {
            var url: String
            var token: String?
        }
        var default_profile: String?
        var profiles: [String: Profile]?
    }

    /// Loads the file; a missing file is an empty config. A file with a token that others can
    /// read (mode not 0600) is refused, like ssh does with private keys.
    public static func load(from url: URL) throws(ShellError) -> ShellConfig {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { return ShellConfig() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ShellError(.usage, "cannot read the config file \(path)")
        }
        let text = String(decoding: data, as: UTF8.self)
        let model: FileModel
        do {
            model = try TOMLDecoder().decode(FileModel.self, from: text)
        } catch {
            throw ShellError(.usage, "the config file \(path) is not valid: \(error)")
        }
        var profiles: [String: BackendProfile] = [:]
        for (name, profile) in model.profiles ?? [:] {
            let profileURL: URL
            switch ServerURL.parse(profile.url) {
            case .success(let url): profileURL = url
            case .failure(let problem):
                throw ShellError(.usage, "profile '\(name)' in \(path) has an unusable url: \(problem.message)", code: "INVALID_URL")
            }
            profiles[name] = BackendProfile(name: name, url: profileURL, token: profile.token)
        }
        if profiles.values.contains(where: { $0.token != nil }) {
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & 0o077 != 0 {
                let mode = String(info.st_mode & 0o777, radix: 8)
                throw ShellError(
                    .usage,
                    "refusing to use \(path): it holds a token but its mode is 0\(mode) (others can read it); run 'chmod 600 \(path)'",
                    code: "INSECURE_CONFIG")
            }
        }
        if let name = model.default_profile, profiles[name] == nil, !BackendProfile.builtIn.contains(where: { $0.name == name }) {
            throw ShellError(.usage, "default_profile '\(name)' in \(path) is not a profile")
        }
        return ShellConfig(defaultProfile: model.default_profile, profiles: profiles)
    }
}
