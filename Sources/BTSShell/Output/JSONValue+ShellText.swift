import BTSTerminalText
import BooksTrackContract
import Foundation

extension JSONValue {
    /// The text a value becomes when interpolated into a word or shown in a cell:
    /// strings as they are, integral numbers without a fraction, `null` as empty, arrays and
    /// objects as compact JSON.
    package var interpolationText: String {
        switch self {
        case .null: return ""
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return JSONValue.format(value)
        case .string(let text): return text
        case .array, .object: return compactJSON
        }
    }

    /// One-line JSON with sorted keys (strings as ``JSONString/Escaping/terminal`` escapes them).
    package var compactJSON: String { jsonText(escaping: .terminal) }

    /// Indented JSON (two spaces) with sorted keys.
    package var prettyJSON: String { jsonText(indent: "  ", escaping: .terminal) }

    /// Indented JSON coloured as jq colours it on a terminal: keys bold blue, strings green, numbers
    /// cyan, `true`/`false` yellow, `null` dim; punctuation plain.
    package var coloredJSON: String { jsonText(indent: "  ", escaping: .terminal, marks: .terminal) }

    /// An object from key/value pairs, leaving out `nil` values.
    package static func record(_ pairs: [(String, JSONValue?)]) -> JSONValue {
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(pairs.count)
        for (key, value) in pairs {
            if let value { members[key] = value }
        }
        return .object(members)
    }

    /// Walks one path component; nil when it does not exist.
    package func child(_ component: ValuePathComponentKey) -> JSONValue? {
        switch component {
        case .key(let key):
            return objectValue?[key]
        case .index(let index):
            guard let elements = arrayValue else { return nil }
            let position = index < 0 ? elements.count + index : index
            return elements.indices.contains(position) ? elements[position] : Optional<JSONValue>.none
        }
    }
}

/// A path step independent of the language module (keeps Output free of the parser).
package enum ValuePathComponentKey: Sendable, Hashable {
    case key(String)
    case index(Int)
}

extension Optional where Wrapped == String {
    var json: JSONValue? { map(JSONValue.string) }
}

extension Optional where Wrapped == Int {
    var json: JSONValue? { map { JSONValue.number(Double($0)) } }
}

extension Optional where Wrapped == Double {
    var json: JSONValue? { map(JSONValue.number) }
}

extension Array where Element == String {
    var json: JSONValue { .array(map(JSONValue.string)) }
}

extension Int {
    var json: JSONValue { .number(Double(self)) }
}

extension String {
    var json: JSONValue { .string(self) }
}
