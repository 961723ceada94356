import Foundation

/// A free-form JSON value, used for `details` objects and other untyped parts of the wire format.
///
/// Numbers are kept as `Double`; integral values within ±2^53 are encoded without a fraction.
package enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let d = try? container.decode(Double.self) {
            self = .number(d)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let a = try? container.decode([JSONValue].self) {
            self = .array(a)
        } else if let o = try? container.decode([String: JSONValue].self) {
            self = .object(o)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .number(let d):
            if !d.isFinite {
                try container.encodeNil()
            } else if d.rounded() == d, abs(d) < 9_007_199_254_740_992 {
                try container.encode(Int64(d))
            } else {
                try container.encode(d)
            }
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }
}

extension JSONValue {
    /// The string, if this is a string.
    package var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number, if this is a number or a numeric string.
    package var doubleValue: Double? {
        switch self {
        case .number(let d): return d
        case .string(let s): return Double(s.trimmingWhitespace())
        default: return nil
        }
    }

    /// The number rounded to an `Int`, if this is a finite number (or numeric string) in range.
    package var intValue: Int? {
        guard let d = doubleValue, d.isFinite, abs(d) < 9.2e18 else { return nil }
        return Int(d.rounded())
    }

    /// The Boolean, if this is a Boolean.
    package var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The members, if this is an object.
    package var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The elements, if this is an array.
    package var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// True for `.null`.
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Member lookup on an object (`nil` for other kinds or a missing key).
    package subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int) { self = .number(Double(value)) }
    package init(floatLiteral value: Double) { self = .number(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    package init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// This value read as `T` with the shared decoder (nil when it does not decode).
    package func decoded<T: Decodable>(as type: T.Type) -> T? {
        guard let data = try? JSONCoding.encoder().encode(self) else { return nil }
        return try? JSONCoding.decoder().decode(T.self, from: data)
    }
}
