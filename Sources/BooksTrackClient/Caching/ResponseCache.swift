import BooksTrackSupport
import Foundation
import NIOCore

/// The client's cache of fresh GET responses, bounded: at most `maxEntries` responses and
/// `maxBytes` of bodies (an `ExpiringCache` weighing a response by its body). When full, the
/// response stored longest ago goes first (expired ones are dropped when met), so a script of many
/// distinct lookups does not keep every body until exit.
struct ResponseCache: Sendable {
    private var storage: ExpiringCache<RawResponse>

    init(maxEntries: Int = 512, maxBytes: Int = 16 * 1024 * 1024) {
        storage = ExpiringCache(maxEntries: maxEntries, maxWeight: maxBytes)
    }

    var maxEntries: Int { storage.maxEntries }
    var maxBytes: Int { storage.maxWeight }
    var count: Int { storage.count }
    /// Body bytes held.
    var bytes: Int { storage.weight }

    /// The stored response for `url` if it is still fresh at `now` (a stale one is dropped).
    mutating func fresh(_ url: String, now: Date) -> RawResponse? {
        storage.value(for: url, now: now)
    }

    /// Stores `raw` for `url` until `expires`, making room by dropping the oldest; a body larger
    /// than the whole cache is not stored.
    mutating func store(_ raw: RawResponse, for url: String, expires: Date) {
        storage.store(raw, for: url, expires: expires, weight: raw.body.readableBytes)
    }
}
