import Foundation

/// Shared JSON configuration for client and server.
///
/// Wire timestamps are ISO-8601 strings in the DTOs (kept as `String` so any server's format
/// round-trips); `ISO8601` converts. The encoder/decoder use ISO-8601 for any `Date` property.
public enum JSONCoding {
    /// An encoder for wire bodies. `sortedKeys` gives stable output (tests, golden files).
    public static func encoder(sortedKeys: Bool = false, pretty: Bool = false) -> JSONEncoder {
        let e = JSONEncoder()
        var format: JSONEncoder.OutputFormatting = [.withoutEscapingSlashes]
        if sortedKeys { format.insert(.sortedKeys) }
        if pretty { format.insert(.prettyPrinted) }
        e.outputFormatting = format
        e.dateEncodingStrategy = .custom { date, encoder in
            var c = encoder.singleValueContainer()
            try c.encode(ISO8601.string(from: date))
        }
        return e
    }

    /// A decoder for wire bodies; dates accept ISO-8601 with or without fractional seconds.
    public static func decoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .custom { decoder in
            let c = try decoder.singleValueContainer()
            if let ms = try? c.decode(Double.self) { return Date(timeIntervalSince1970: ms / 1000) }
            let s = try c.decode(String.self)
            guard let date = ISO8601.date(from: s) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "not an ISO-8601 date: \(s)")
            }
            return date
        }
        return d
    }

    /// Encodes `value` to a UTF-8 string (sorted keys), for tests and traces.
    public static func string(_ value: some Encodable) throws -> String {
        let data = try encoder(sortedKeys: true).encode(value)
        return String(decoding: data, as: UTF8.self)
    }
}

/// ISO-8601 conversions for the contract's timestamp strings.
public enum ISO8601 {
    /// `2026-11-22T02:00:30.123Z` (UTC, milliseconds).
    public static func string(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// `2026-11-22` (UTC), the form of `week_of`.
    public static func dayString(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle().year().month().day())
    }

    /// Parses an ISO-8601 timestamp with or without fractional seconds, or a bare `YYYY-MM-DD`.
    public static func date(from string: String) -> Date? {
        let s = String(string.trimmingWhitespace())
        if let d = try? Date(s, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return d }
        if let d = try? Date(s, strategy: Date.ISO8601FormatStyle()) { return d }
        if let d = try? Date(s, strategy: Date.ISO8601FormatStyle().year().month().day()) { return d }
        return nil
    }
}

extension KeyedDecodingContainer {
    /// An integer that may arrive as an integer, a float (rounded) or a numeric string; `nil` if absent/null.
    func decodeLenientInt(forKey key: Key) throws -> Int? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        let value = try decode(JSONValue.self, forKey: key)
        guard let i = value.intValue else {
            throw DecodingError.typeMismatch(
                Int.self,
                .init(codingPath: codingPath + [key], debugDescription: "expected a number, found \(value)"))
        }
        return i
    }

    /// A number that may arrive as a number or numeric string; `nil` if absent/null.
    func decodeLenientDouble(forKey key: Key) throws -> Double? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        let value = try decode(JSONValue.self, forKey: key)
        guard let d = value.doubleValue else {
            throw DecodingError.typeMismatch(
                Double.self,
                .init(codingPath: codingPath + [key], debugDescription: "expected a number, found \(value)"))
        }
        return d
    }

    /// A string that may arrive as a string or a number; `nil` if absent/null.
    func decodeLenientString(forKey key: Key) throws -> String? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        let value = try decode(JSONValue.self, forKey: key)
        switch value {
        case .string(let s): return s
        case .number(let d): return d.rounded() == d && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        case .bool(let b): return String(b)
        default:
            throw DecodingError.typeMismatch(
                String.self,
                .init(codingPath: codingPath + [key], debugDescription: "expected a string, found \(value)"))
        }
    }

    /// An array that may be absent or null (then empty).
    func decodeArrayOrEmpty<E: Decodable>(_ type: E.Type, forKey key: Key) throws -> [E] {
        try decodeIfPresent([E].self, forKey: key) ?? []
    }

    /// A required integer with lenient number forms.
    func decodeRequiredLenientInt(forKey key: Key) throws -> Int {
        guard let i = try decodeLenientInt(forKey: key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "required number '\(key.stringValue)' is missing"))
        }
        return i
    }
}
