import BTSTerminalText
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
    public var compactJSON: String { json(indent: nil) }

    /// Indented JSON (two spaces) with sorted keys.
    public var prettyJSON: String { json(indent: Array("  ".utf8)) }

    /// Indented JSON coloured as jq colours it on a terminal: keys bold blue, strings green, numbers
    /// cyan, `true`/`false` yellow, `null` dim; punctuation plain.
    public var coloredJSON: String { json(indent: Array("  ".utf8), colored: true) }

    /// The JSON text, written as UTF-8 bytes into one buffer (appending to a `String` piece by
    /// piece pays `String`'s growth checks at every piece).
    private func json(indent: [UInt8]?, colored: Bool = false) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(512)
        write(into: &output, indent: indent, level: 0, colored: colored)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `write` wrapped in `style` when `colored`.
    private static func styled(_ style: ANSIStyle, _ colored: Bool, _ output: inout [UInt8], _ write: (inout [UInt8]) -> Void) {
        guard colored else { return write(&output) }
        output.append(contentsOf: style.rawValue.utf8)
        write(&output)
        output.append(contentsOf: ANSIStyle.reset.rawValue.utf8)
    }

    /// A number as JSON writes it: integral values without a fraction.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value, abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return String(value)
    }

    private func write(into output: inout [UInt8], indent: [UInt8]?, level: Int, colored: Bool) {
        func newline(_ depth: Int) {
            guard let indent else { return }
            output.append(UInt8(ascii: "\n"))
            for _ in 0..<depth { output.append(contentsOf: indent) }
        }
        switch self {
        case .null: JSONValue.styled(.dim, colored, &output) { $0.append(contentsOf: "null".utf8) }
        case .bool(let value): JSONValue.styled(.yellow, colored, &output) { $0.append(contentsOf: (value ? "true" : "false").utf8) }
        case .number(let value): JSONValue.styled(.cyan, colored, &output) { $0.append(contentsOf: JSONValue.format(value).utf8) }
        case .string(let text): JSONValue.styled(.green, colored, &output) { JSONValue.writeString(text, into: &$0) }
        case .array(let elements):
            if elements.isEmpty {
                output.append(contentsOf: "[]".utf8)
                return
            }
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(level + 1)
                element.write(into: &output, indent: indent, level: level + 1, colored: colored)
            }
            newline(level)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty {
                output.append(contentsOf: "{}".utf8)
                return
            }
            output.append(UInt8(ascii: "{"))
            // The members sorted as pairs: no second hash lookup per key.
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(level + 1)
                JSONValue.styled(.jsonKey, colored, &output) { JSONValue.writeString(member.key, into: &$0) }
                output.append(UInt8(ascii: ":"))
                if indent != nil { output.append(UInt8(ascii: " ")) }
                member.value.write(into: &output, indent: indent, level: level + 1, colored: colored)
            }
            newline(level)
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Printable ASCII without a quote or backslash (most strings) goes in whole, checked and
        // copied over the string's own bytes (iterating `utf8` one index at a time is slower).
        let plain: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
            else { return false }
            output.append(contentsOf: bytes)
            return true
        }
        if plain == true {
            output.append(UInt8(ascii: "\""))
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output.append(contentsOf: "\\\"".utf8)
            case "\\": output.append(contentsOf: "\\\\".utf8)
            case "\n": output.append(contentsOf: "\\n".utf8)
            case "\r": output.append(contentsOf: "\\r".utf8)
            case "\t": output.append(contentsOf: "\\t".utf8)
            default:
                if scalar.value < 0x20 || TerminalText.needsWork(scalar) {
                    output.append(contentsOf: String(format: "\\u%04x", scalar.value).utf8)
                } else {
                    output.append(contentsOf: UTF8.encode(scalar).map { Array($0) } ?? [])
                }
            }
        }
        output.append(UInt8(ascii: "\""))
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
