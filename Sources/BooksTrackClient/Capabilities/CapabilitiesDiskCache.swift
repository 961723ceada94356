import BooksTrackContract
import Foundation

/// Capabilities cached on disk per backend (`capabilities-<hash of base URL>.json`), so an offline
/// shell still knows what the server offers.
struct CapabilitiesDiskCache: Sendable {
    struct Entry: Codable, Sendable {
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

    /// The cache file of this backend.
    var fileURL: URL {
        directory.appendingPathComponent("capabilities-\(Self.hash(Self.normalized(baseURL))).json")
    }

    /// The key of a backend: its URL lowercased, without credentials (no secret is written to disk).
    static func normalized(_ url: URL) -> String {
        var text = ServerURL.withoutCredentials(url.absoluteString).lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        return text
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
            entry.baseURL == Self.normalized(baseURL)
        else { return nil }
        return entry
    }

    /// Writes atomically (temp file + rename); failures are ignored (the cache is an optimization).
    func store(_ capabilities: Capabilities, dialect: APIDialect?, at date: Date) {
        let entry = Entry(
            baseURL: Self.normalized(baseURL), fetchedAt: date.timeIntervalSince1970, capabilities: capabilities,
            dialect: dialect)
        guard let data = try? JSONCoding.encoder(sortedKeys: true).encode(entry) else { return }
        try? FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try? data.write(to: fileURL, options: .atomic)
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: fileURL.path)
    }
}
