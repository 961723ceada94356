/// A string enumeration left open: a value this build does not know still decodes, as itself, and
/// encodes back unchanged. A conforming type declares its `rawValue` and its named values only.
package protocol OpenStringEnum: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral,
    CustomStringConvertible
where RawValue == String {
    init(rawValue: String)
}

extension OpenStringEnum {
    package init(_ rawValue: String) { self.init(rawValue: rawValue) }
    package init(stringLiteral value: String) { self.init(rawValue: value) }
    /// The string itself (`RawRepresentable`'s generic default looked up `Optional`'s metadata at
    /// each value).
    package init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    package var description: String { rawValue }
}
