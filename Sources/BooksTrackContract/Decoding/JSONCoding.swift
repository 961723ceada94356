import Foundation

/// Shared JSON configuration for client and server.
///
/// Wire timestamps are ISO-8601 strings in the DTOs (kept as `String` so any server's format
/// round-trips); `ISO8601` converts. The encoder/decoder use ISO-8601 for any `Date` property.
package enum JSONCoding {
    /// An encoder for wire bodies. `sortedKeys` gives stable output (tests, golden files).
    package static func encoder(sortedKeys: Bool = false, pretty: Bool = false) -> JSONEncoder {
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
    package static func decoder() -> JSONDecoder {
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
    package static func string(_ value: some Encodable) throws -> String {
        let data = try encoder(sortedKeys: true).encode(value)
        return String(decoding: data, as: UTF8.self)
    }
}

/// ISO-8601 conversions for the contract's timestamp strings.
package enum ISO8601 {
    /// `2026-11-22T02:00:30.123Z` (UTC, milliseconds).
    package static func string(from date: Date) -> String {
        // Every enveloped response carries one: written by hand from the civil date (the format
        // style is a visible share of a server response's time). Years before 1600 (the format style
        // counts them in the Julian calendar) and after 9999 keep the format style's rendering.
        // Whole seconds and the millisecond truncated from the fraction, both counted from the
        // reference date as Foundation counts them (so the far-future rounding agrees too).
        let reference = date.timeIntervalSinceReferenceDate
        guard reference.isFinite, abs(reference) < 252_000_000_000 else { return formatted(date) }
        let seconds = reference.rounded(.down)
        let fraction = Int64(((reference - seconds) * 1000).rounded(.down))
        let total = (Int64(seconds) + 978_307_200) * 1000 + min(999, max(0, fraction))
        let (days, msOfDay) = total.quotientAndRemainder(dividingBy: 86_400_000)
        let day = msOfDay < 0 ? days - 1 : days
        let ms = msOfDay < 0 ? msOfDay + 86_400_000 : msOfDay
        let (year, month, dayOfMonth) = civilDate(daysSince1970: day)
        guard (1600...9999).contains(year) else { return formatted(date) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func digits(_ value: Int64, _ width: Int) {
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(dayOfMonth, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(ms / 3_600_000, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(ms / 60_000 % 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(ms / 1000 % 60, 2)
        bytes.append(UInt8(ascii: "."))
        digits(ms % 1000, 3)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The format style's rendering (`string(from:)` outside the years it writes itself).
    static func formatted(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Year, month, day of the proleptic Gregorian calendar (H. Hinnant's `civil_from_days`).
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `2026-11-22` (UTC), the form of `week_of`.
    package static func dayString(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle().year().month().day())
    }

    /// Parses an ISO-8601 timestamp with or without fractional seconds, or a bare `YYYY-MM-DD`.
    package static func date(from string: String) -> Date? {
        let s = String(string.trimmingWhitespace())
        if let d = try? Date(s, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return d }
        if let d = try? Date(s, strategy: Date.ISO8601FormatStyle()) { return d }
        if let d = try? Date(s, strategy: Date.ISO8601FormatStyle().year().month().day()) { return d }
        return nil
    }
}

extension KeyedFields {
    /// An integer that may arrive as an integer, a float (rounded) or a numeric string; `nil` if absent/null.
    func decodeLenientInt(forKey key: Key) throws -> Int? {
        // The usual cases first, in one lookup: absent, null or a plain integer (no JSON tree per
        // field on the common path); anything else takes the lenient path.
        do { return try decodeIfPresent(Int.self, forKey: key) } catch {}
        let value = try decode(JSONValue.self, forKey: key)
        guard let i = value.intValue else {
            throw DecodingError.typeMismatch(
                Int.self,
                .init(codingPath: codingPath + [key], debugDescription: "expected a number, found \(value)")
            )
        }
        return i
    }

    /// A number that may arrive as a number or numeric string; `nil` if absent/null.
    func decodeLenientDouble(forKey key: Key) throws -> Double? {
        do { return try decodeIfPresent(Double.self, forKey: key) } catch {}
        let value = try decode(JSONValue.self, forKey: key)
        guard let d = value.doubleValue else {
            throw DecodingError.typeMismatch(
                Double.self,
                .init(codingPath: codingPath + [key], debugDescription: "expected a number, found \(value)")
            )
        }
        return d
    }

    /// A string that may arrive as a string or a number; `nil` if absent/null.
    func decodeLenientString(forKey key: Key) throws -> String? {
        do { return try decodeIfPresent(String.self, forKey: key) } catch {}
        let value = try decode(JSONValue.self, forKey: key)
        switch value {
        case .string(let s): return s
        case .number(let d): return d.rounded() == d && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        case .bool(let b): return String(b)
        default:
            throw DecodingError.typeMismatch(
                String.self,
                .init(codingPath: codingPath + [key], debugDescription: "expected a string, found \(value)")
            )
        }
    }
}
