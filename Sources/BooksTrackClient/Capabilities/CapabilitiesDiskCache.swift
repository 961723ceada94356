import BooksTrackContract
import BooksTrackSupport
import Foundation

/// Capabilities cached on disk per backend and identity (`capabilities-<hash of the key>.json`), so
/// an offline shell still knows what the server offers.
///
/// The key of a backend (``key(_:identity:)``, shared with the response cache): its URL with the
/// scheme and host lowercased (they name the same server in any case) and the path kept as it is
/// (`/Alice` and `/alice` may be two tenants behind one host), without credentials or trailing
/// slashes; then, when the requests carry a token or URL credentials, a digest of them (never the
/// secret itself): two identities on one URL never share an answer.
struct CapabilitiesDiskCache: Sendable {
    struct Entry: Codable, Sendable {
        /// The key (``CapabilitiesDiskCache/key(_:identity:)``) the entry was stored under.
        var baseURL: String
        /// Epoch seconds.
        var fetchedAt: Double
        var capabilities: Capabilities
        /// The API dialect negotiated with this backend (nil in entries written before dialects:
        /// such an entry is asked again, once).
        var dialect: APIDialect?
    }

    let directory: URL
    let baseURL: URL
    /// Who asks (``identity(bearerToken:url:)``); nil: nobody in particular.
    let identity: String?

    init(directory: URL, baseURL: URL, identity: String? = nil) {
        self.directory = directory
        self.baseURL = baseURL
        self.identity = identity
    }

    /// The cache file of this backend and identity.
    var fileURL: URL {
        directory.appendingPathComponent("capabilities-\(Self.hash(Self.key(baseURL, identity: identity))).json")
    }

    /// The key of a backend as one identity sees it.
    static func key(_ url: URL, identity: String?) -> String {
        normalized(url) + (identity.map { " as " + $0 } ?? "")
    }

    /// A backend's URL: scheme and host lowercased, path, query and port as given, no credentials
    /// (no secret is written to disk), no trailing slash.
    static func normalized(_ url: URL) -> String {
        var text: String
        if var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.user = nil
            components.password = nil
            components.scheme = components.scheme?.lowercased()
            if let host = components.percentEncodedHost { components.percentEncodedHost = host.lowercased() }
            text = components.string ?? ServerURL.withoutCredentials(url.absoluteString)
        } else {
            text = ServerURL.withoutCredentials(url.absoluteString)
        }
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// Who asks, for the caches' keys: `sha256:` and the first 32 hex digits of the SHA-256 of the
    /// bearer token and the URL's credentials; nil when the requests carry neither.
    static func identity(bearerToken: String?, url: URL) -> String? {
        let credentials = URLComponents(url: url, resolvingAgainstBaseURL: false).flatMap { components in
            components.percentEncodedUser.map { $0 + ":" + (components.percentEncodedPassword ?? "") }
        }
        let token = bearerToken.flatMap { $0.isEmpty ? nil : $0 }
        guard token != nil || credentials != nil else { return nil }
        let secret = "bearer:\(token ?? "")\nbasic:\(credentials ?? "")"
        return "sha256:" + SHA256Digest.hex(Array(secret.utf8)).prefix(32)
    }

    /// FNV-1a 64-bit, hex: stable across runs and platforms.
    static func hash(_ text: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01B3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: max(0, 16 - hex.count)) + hex
    }

    /// The cached entry, if readable and for this backend.
    func load() -> Entry? {
        guard let data = try? Data(contentsOf: fileURL),
            let entry = try? JSONCoding.decoder().decode(Entry.self, from: data),
            entry.baseURL == Self.key(baseURL, identity: identity)
        else { return nil }
        return entry
    }

    /// Writes atomically (temp file + rename); failures are ignored (the cache is an optimization).
    func store(_ capabilities: Capabilities, dialect: APIDialect?, at date: Date) {
        let entry = Entry(
            baseURL: Self.key(baseURL, identity: identity),
            fetchedAt: date.timeIntervalSince1970,
            capabilities: capabilities,
            dialect: dialect
        )
        guard let data = try? JSONCoding.encoder(sortedKeys: true).encode(entry) else { return }
        try? FileManager.default.createDirectory(
            at: directory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        try? data.write(to: fileURL, options: .atomic)
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: fileURL.path)
    }
}
