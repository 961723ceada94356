import Foundation

/// The `metadata` object of every envelope (docs/contract.md §1).
package struct ResponseMetadata: Codable, Sendable, Hashable {
    /// ISO-8601 timestamp of the response.
    package var timestamp: String
    /// Server processing time in milliseconds.
    package var processingTime: Int?
    package var provider: String?
    package var cached: Bool?
    package var source: String?
    /// v2 search only.
    package var searchMode: SearchMode?

    package init(
        timestamp: String,
        processingTime: Int? = nil,
        provider: String? = nil,
        cached: Bool? = nil,
        source: String? = nil,
        searchMode: SearchMode? = nil
    ) {
        self.timestamp = timestamp
        self.processingTime = processingTime
        self.provider = provider
        self.cached = cached
        self.source = source
        self.searchMode = searchMode
    }

    /// Metadata stamped with `date` (default: now).
    package init(
        date: Date = Date(),
        processingTime: Int? = nil,
        provider: String? = nil,
        cached: Bool? = nil,
        source: String? = nil,
        searchMode: SearchMode? = nil
    ) {
        self.init(
            timestamp: ISO8601.string(from: date),
            processingTime: processingTime,
            provider: provider,
            cached: cached,
            source: source,
            searchMode: searchMode
        )
    }

    /// The parsed `timestamp`, when it is valid ISO-8601.
    package var date: Date? { ISO8601.date(from: timestamp) }

    enum CodingKeys: String, CodingKey {
        case timestamp, processingTime, provider, cached, source, searchMode
    }

    /// Lenient: a missing timestamp decodes as "", numbers may be floats, an unknown `searchMode` is dropped.
    package init(from decoder: any Decoder) throws { try self.init(decodingFieldsFrom: decoder) }

    init<Fields: KeyedFields<CodingKeys>>(fields c: Fields) throws {
        timestamp = try c.decodeLenientString(forKey: .timestamp) ?? ""
        processingTime = try c.decodeLenientInt(forKey: .processingTime)
        provider = try c.decodeLenientString(forKey: .provider)
        cached = try? c.decodeIfPresent(Bool.self, forKey: .cached)
        source = try c.decodeLenientString(forKey: .source)
        searchMode = (try? c.decodeIfPresent(String.self, forKey: .searchMode)).flatMap {
            $0.flatMap(SearchMode.init(rawValue:))
        }
    }
}

/// The v2 search modes (`/api/v2/search?mode=`).
package enum SearchMode: String, Codable, Sendable, Hashable, CaseIterable {
    case text, semantic, hybrid, similar
}

extension ResponseMetadata: FieldsDecodable {}
