import Foundation
import OrderedCollections

/// The client's cache of fresh GET responses, bounded: at most `maxEntries` responses and
/// `maxBytes` of bodies. When full, the response stored longest ago goes first (expired ones are
/// dropped when met). It was an unbounded dictionary: a script of 100,000 distinct lookups kept
/// every body until exit.
struct ResponseCache: Sendable {
    let maxEntries: Int
    let maxBytes: Int
    private var entries: OrderedDictionary<String, CachedResponse> = [:]
    /// Body bytes held.
    private(set) var bytes = 0

    init(maxEntries: Int = 512, maxBytes: Int = 16 * 1024 * 1024) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    var count: Int { entries.count }

    /// The stored response for `url` if it is still fresh at `now` (a stale one is dropped).
    mutating func fresh(_ url: String, now: Date) -> RawResponse? {
        guard let entry = entries[url] else { return nil }
        if entry.expires > now { return entry.raw }
        remove(url)
        return nil
    }

    /// Stores `raw` for `url` until `expires`, making room by dropping the oldest; a body larger
    /// than the whole cache is not stored.
    mutating func store(_ raw: RawResponse, for url: String, expires: Date) {
        remove(url)
        let size = raw.body.readableBytes
        guard size <= maxBytes, maxEntries > 0 else { return }
        while !entries.isEmpty, entries.count >= maxEntries || bytes + size > maxBytes {
            let oldest = entries.removeFirst()
            bytes -= oldest.value.raw.body.readableBytes
        }
        entries[url] = CachedResponse(raw: raw, expires: expires)
        bytes += size
    }

    mutating func remove(_ url: String) {
        if let old = entries.removeValue(forKey: url) { bytes -= old.raw.body.readableBytes }
    }
}
