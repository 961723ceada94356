import BTSTerminalText
import BooksTrackClient
import BooksTrackContract
import Foundation
import TOMLKit

#if canImport(Glibc)
import Glibc
#endif

/// A named backend: a URL and an optional bearer token.
package struct BackendProfile: Sendable, Hashable {
    package var name: String
    package var url: URL
    package var token: String?
    /// The API dialect to speak with this server (`dialect = "v3"`); nil negotiates it.
    package var dialect: APIDialect?

    package init(name: String, url: URL, token: String? = nil, dialect: APIDialect? = nil) {
        self.name = name
        self.url = url
        self.token = token
        self.dialect = dialect
    }

    /// `production`, `staging`, `local` (docs/usage.md): the contract's `KnownBackend`s.
    package static let builtIn: [BackendProfile] = KnownBackend.allCases.compactMap { known in
        URL(string: known.address).map { BackendProfile(name: known.rawValue, url: $0) }
    }

    /// A built-in profile's base URL (lower-cased, no trailing `/`) → its name, for the prompt.
    package static let builtInNamesByURL: [String: String] = Dictionary(
        uniqueKeysWithValues: KnownBackend.allCases.map { ($0.address.lowercased(), $0.rawValue) }
    )
}

/// The config file `$XDG_CONFIG_HOME/bts/config.toml`:
///
/// ```toml
/// default_profile = "staging"
///
/// [profiles.staging]
/// url = "https://staging-api.oooefam.net"
/// token = "…"          # a file holding a token must be mode 0600
/// dialect = "v3"       # auto (the default: asked of the server), v1 or v3
/// ```
package struct ShellConfig: Sendable, Hashable {
    package var defaultProfile: String?
    /// Profiles of the file (they override built-in profiles of the same name).
    package var profiles: [String: BackendProfile]

    package init(defaultProfile: String? = nil, profiles: [String: BackendProfile] = [:]) {
        self.defaultProfile = defaultProfile
        self.profiles = profiles
    }

    /// A profile by name: the file's, else a built-in one.
    package func profile(named name: String) -> BackendProfile? {
        profiles[name] ?? BackendProfile.builtIn.first { $0.name == name }
    }

    /// Every profile name (for completion and messages).
    package var profileNames: [String] {
        Array(Set(profiles.keys).union(BackendProfile.builtIn.map(\.name))).sorted()
    }

    private struct FileModel: Decodable {
        struct Profile: Decodable {
            var url: String
            var token: String?
            var dialect: String?
        }
        var default_profile: String?
        var profiles: [String: Profile]?
    }

    /// Loads the file; a missing file is an empty config. A file with a token that others can
    /// read (mode not 0600) is refused, like ssh does with private keys.
    package static func load(from url: URL) throws(ShellError) -> ShellConfig {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { return ShellConfig() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ShellError(.usage, "cannot read the config file \(path)")
        }
        let text = String(decoding: data, as: UTF8.self)
        /// An error about the file, said as `PATH:LINE[:COLUMN]: …` (never pointing at the command).
        func fileError(_ line: Int?, column: Int? = nil, _ message: String, code: ErrorCode? = nil) -> ShellError {
            var place = path
            if let line { place += ":\(line)" + (column.map { ":\($0)" } ?? "") }
            var error = ShellError(
                .usage,
                "\(place): \(TerminalText.sanitize(message, lines: .flatten))",
                code: code ?? .config
            )
            error.pointsIntoSource = false
            return error
        }
        let model: FileModel
        do {
            model = try TOMLDecoder().decode(FileModel.self, from: text)
        } catch let error as TOMLParseError {
            throw fileError(
                error.source.begin.line,
                column: error.source.begin.column,
                "not valid TOML: \(error.description)"
            )
        } catch let error as DecodingError {
            let keyPath = Self.codingPath(error)
            let place = ConfigLines.line(of: keyPath, in: text)
            var message = Self.describe(error)
            // TOMLKit reports a value of the wrong type as a missing key: say what it is.
            if case .keyNotFound = error, place.isKey {
                message = "'\(keyPath.joined(separator: "."))' must be a string"
            }
            throw fileError(place.line, message)
        } catch {
            throw fileError(nil, "not a valid config file")
        }
        var profiles: [String: BackendProfile] = [:]
        for (name, profile) in model.profiles ?? [:] {
            let profileURL: URL
            switch ServerURL.parseServer(profile.url) {
            case .success(let url): profileURL = url
            case .failure(let problem):
                throw fileError(
                    ConfigLines.line(of: ["profiles", name, "url"], in: text).line,
                    "profile '\(name)' has an unusable url: \(problem.message)",
                    code: .invalidURL
                )
            }
            var dialect: APIDialect?
            if let named = profile.dialect, named.lowercased() != "auto" {
                guard let known = APIDialect(name: named) else {
                    throw fileError(
                        ConfigLines.line(of: ["profiles", name, "dialect"], in: text).line,
                        "profile '\(name)' has dialect '\(named)': use auto, v1 or v3",
                        code: .config
                    )
                }
                dialect = known
            }
            profiles[name] = BackendProfile(name: name, url: profileURL, token: profile.token, dialect: dialect)
        }
        if profiles.values.contains(where: { $0.token != nil }) {
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & 0o077 != 0 {
                let mode = String(info.st_mode & 0o777, radix: 8)
                var error = ShellError(
                    .usage,
                    "refusing to use \(path): it holds a token but its mode is 0\(mode) (others can read it); run 'chmod 600 \(path)'",
                    code: .insecureConfig
                )
                error.pointsIntoSource = false
                throw error
            }
        }
        if let name = model.default_profile, profiles[name] == nil,
            !BackendProfile.builtIn.contains(where: { $0.name == name })
        {
            throw fileError(
                ConfigLines.line(of: ["default_profile"], in: text).line,
                "default_profile '\(name)' is not a profile"
            )
        }
        return ShellConfig(defaultProfile: model.default_profile, profiles: profiles)
    }

    static func codingPath(_ error: DecodingError) -> [String] {
        switch error {
        case .keyNotFound(let key, let context):
            let path = context.codingPath.map(\.stringValue)
            return path.last == key.stringValue ? path : path + [key.stringValue]
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath.map(\.stringValue)
        @unknown default: return []
        }
    }

    /// One sentence for a decoding error, naming the key as the file writes it.
    static func describe(_ error: DecodingError) -> String {
        let key = codingPath(error).joined(separator: ".")
        switch error {
        case .keyNotFound: return "'\(key)' is missing"
        case .typeMismatch(let type, _): return "'\(key)' must be \(type == String.self ? "a string" : "a \(type)")"
        case .valueNotFound: return "'\(key)' has no value"
        default: return "'\(key)' is not valid"
        }
    }
}

/// Where a key of a TOML file is: `["profiles", "work", "url"]` is the `url = …` line under
/// `[profiles.work]`, or that header when the key is missing. Plain line scanning, for messages only.
enum ConfigLines {
    /// The line, and whether it is the key's own line (else its table's header, or nil).
    static func line(of path: [String], in text: String) -> (line: Int?, isKey: Bool) {
        guard let key = path.last else { return (nil, false) }
        let table = path.dropLast().joined(separator: ".")
        var current = ""
        var headerLine: Int?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("["), let end = line.firstIndex(of: "]") {
                current = line[line.index(after: line.startIndex)..<end].trimmingCharacters(in: .whitespaces)
                if current == table { headerLine = index + 1 }
                if current == path.joined(separator: ".") { return (index + 1, false) }  // a table's header
                continue
            }
            if current == table, let equals = line.firstIndex(of: "="),
                line[..<equals].trimmingCharacters(in: .whitespaces) == key
            {
                return (index + 1, true)
            }
        }
        return (headerLine, false)
    }
}

extension ErrorCode {
    /// A config file that cannot be used (syntax, an unknown dialect).
    static let config: ErrorCode = "CONFIG"
    /// A token in a config file others may read.
    static let insecureConfig: ErrorCode = "INSECURE_CONFIG"
    /// A backend URL that is not one (a profile's, `--api`, `BTS_API_URL`, `connect`).
    static let invalidURL: ErrorCode = "INVALID_URL"
}
