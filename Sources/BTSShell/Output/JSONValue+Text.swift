import BooksTrackContract
import Foundation

extension JSONValue {
    /// The text a value becomes when interpolated into a word or shown in a cell:
    /// strings as they are, integral numbers without a fraction, `null` as empty, arrays and
    /// objects as compact JSON.
    public var interpolationText: String {
        switch self {
        case .null: return ""
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return JSONValue.format(value)
        case .string(let text): return text
        case .array, .object: return compactJSON
        }
    }

    /// One-line JSON with sorted keys.
    public var compactJSON: String {
        var output = ""
        write(into: &output, indent: nil, level: 0)
        return output
    }

    /// Indented JSON (two spaces) with sorted keys.
    public var prettyJSON: String {
        var output = ""
        write(into: &output, indent: "  ", level: 0)
        return output
    }

    /// A number as JSON writes it: integral values without a fraction.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value, abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return String(value)
    }

    private func write(into output: inout String, indent: String?, level: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let value): output += JSONValue.format(value)
        case .string(let text): JSONValue.writeString(text, into: &output)
        case .array(let elements):
            if elements.isEmpty {
                output += "[]"
                return
            }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                if let indent { output += "\n" + String(repeating: indent, count: level + 1) }
                element.write(into: &output, indent: indent, level: level + 1)
            }
            if let indent { output += "\n" + String(repeating: indent, count: level) }
            output += "]"
        case .object(let members):
            if members.isEmpty {
                output += "{}"
                return
            }
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                if let indent { output += "\n" + String(repeating: indent, count: level + 1) }
                JSONValue.writeString(key, into: &output)
                output += indent == nil ? ":" : ": "
                members[key]?.write(into: &output, indent: indent, level: level + 1)
            }
            if let indent { output += "\n" + String(repeating: indent, count: level) }
            output += "}"
        }
    }

    private static func writeString(_ text: String, into output: inout String) {
        output += "\""
        // Printable ASCII without a quote or backslash (most strings) goes in whole.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            output += text
            output += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 || TerminalText.needsWork(scalar) {
                    output += String(format: "\\u%04x", scalar.value)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }

    /// Converts any `Encodable` value (a contract DTO) to a `JSONValue`.
    public static func encoding(_ value: some Encodable) -> JSONValue {
        do {
            let data = try JSONEncoder().encode(value)
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            return .null
        }
    }

    /// An object from key/value pairs, leaving out `nil` values.
    public static func record(_ pairs: [(String, JSONValue?)]) -> JSONValue {
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(pairs.count)
        for (key, value) in pairs {
            if let value { members[key] = value }
        }
        return .object(members)
    }

    /// Walks one path component; nil when it does not exist.
    public func child(_ component: ValuePathComponentKey) -> JSONValue? {
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
public enum ValuePathComponentKey: Sendable, Hashable {
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
