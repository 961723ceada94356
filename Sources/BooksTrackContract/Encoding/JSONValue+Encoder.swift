import Foundation

extension JSONValue {
    /// `value` as JSON, as ``JSONValueEncoder`` encodes it; `null` when its encoding throws (a
    /// non-finite number, or the value's own error).
    package static func encoding(_ value: some Encodable) -> JSONValue {
        (try? JSONValueEncoder().encode(value)) ?? .null
    }
}

/// Encodes an `Encodable` straight into a ``JSONValue`` tree, with no text in between: the value
/// `JSONDecoder` reads back from `JSONEncoder()`'s output (default strategies), at a fraction of
/// the cost (200,000 values went through the text in tens of seconds).
///
/// As `JSONEncoder` writes them: a `Date` as its `Double` of seconds since 2001, `Data` as base64,
/// a `URL` as its absolute string, a `Decimal` and a `Float` as the number their text reads as, a
/// `nil` optional member left out (`encodeIfPresent`) or `null` where encoded, a value that writes
/// nothing as `{}`, `superEncoder()` under `"super"`; a NaN or infinite number, or a whole value
/// that writes nothing, throws `EncodingError.invalidValue`. Keys are a ``JSONValue/object(_:)``'s (unordered; writers sort
/// them). No coding path is kept (each nested value would allocate one): containers report `[]`.
package struct JSONValueEncoder: Sendable {
    package init() {}

    /// `value` as a JSON tree.
    package func encode(_ value: some Encodable) throws -> JSONValue {
        if let special = try TreeNode.foundationValue(value) { return special }
        let node = TreeNode()
        try value.encode(to: TreeEncoder(node: node))
        // Inside another value one that writes nothing is `{}`; as the whole document JSONEncoder
        // refuses it.
        guard node.kind != .empty else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [],
                    debugDescription: "Top-level \(type(of: value)) did not encode any values."
                )
            )
        }
        return node.json
    }
}

/// A value being encoded: a leaf, or an object or array its containers fill. A value encoded in
/// one call is stored as its JSON as soon as it is written (no node kept for it); only a container
/// handed out to be filled later (a nested container, a super encoder) is a node read at the end.
private final class TreeNode {
    enum Kind { case empty, leaf, object, array }

    var kind = Kind.empty
    var leaf = JSONValue.null
    var members: [String: JSONValue] = [:]
    var elements: [JSONValue] = []
    var pendingMembers: [String: TreeNode] = [:]
    /// Each with its place in ``elements`` (held by a `null` until the end).
    var pendingElements: [(index: Int, node: TreeNode)] = []

    /// `value` as JSON.
    static func encoded<T: Encodable>(_ value: T) throws -> JSONValue {
        if let special = try foundationValue(value) { return special }
        let node = TreeNode()
        try value.encode(to: TreeEncoder(node: node))
        return node.json
    }

    /// The types `JSONEncoder` writes its own way rather than by their `encode(to:)`; nil for others.
    static func foundationValue<T: Encodable>(_ value: T) throws -> JSONValue? {
        if T.self == Data.self, let data = value as? Data { return .string(data.base64EncodedString()) }
        if T.self == URL.self, let url = value as? URL { return .string(url.absoluteString) }
        if T.self == Decimal.self, let decimal = value as? Decimal {
            guard let number = Double(decimal.description), number.isFinite else { throw nonFinite(value) }
            return .number(number)
        }
        return nil
    }

    /// A number, or the error `JSONEncoder` throws for one JSON cannot hold.
    static func number(_ value: Double) throws -> JSONValue {
        guard value.isFinite else { throw nonFinite(value) }
        return .number(value)
    }

    /// A `Float` as the `Double` its shortest text reads as (`0.1`, not `0.100000001…`).
    static func number(_ value: Float) throws -> JSONValue {
        guard value.isFinite else { throw nonFinite(value) }
        return .number(Double(value.description) ?? Double(value))
    }

    static func nonFinite(_ value: Any) -> EncodingError {
        EncodingError.invalidValue(
            value,
            EncodingError.Context(codingPath: [], debugDescription: "Unable to encode \(value) directly in JSON.")
        )
    }

    func set(_ value: JSONValue) {
        kind = .leaf
        leaf = value
    }

    func set(_ value: JSONValue, at key: String) {
        kind = .object
        members[key] = value
        pendingMembers[key] = nil
    }

    /// A member under `key` to be filled later.
    func pendingMember(_ key: String) -> TreeNode {
        kind = .object
        let node = TreeNode()
        pendingMembers[key] = node
        return node
    }

    func append(_ value: JSONValue) {
        kind = .array
        elements.append(value)
    }

    /// An element at the end to be filled later.
    func pendingElement() -> TreeNode {
        kind = .array
        let node = TreeNode()
        pendingElements.append((elements.count, node))
        elements.append(.null)
        return node
    }

    var json: JSONValue {
        switch kind {
        case .leaf: return leaf
        // A value that wrote nothing is an empty object, as JSONEncoder writes it.
        case .empty: return .object([:])
        case .object:
            var all = members
            for (key, node) in pendingMembers { all[key] = node.json }
            return .object(all)
        case .array:
            var all = elements
            for (index, node) in pendingElements { all[index] = node.json }
            return .array(all)
        }
    }
}

/// The encoder (and its containers) of one node.
private struct TreeEncoder: Encoder {
    let node: TreeNode
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.kind != .object { node.kind = .object }
        return KeyedEncodingContainer(KeyedTreeContainer<Key>(node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.kind != .array { node.kind = .array }
        return UnkeyedTreeContainer(node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleTreeContainer(node: node)
    }
}

private struct KeyedTreeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: TreeNode
    var codingPath: [any CodingKey] { [] }

    private func set(_ value: JSONValue, _ key: Key) { node.set(value, at: key.stringValue) }

    mutating func encodeNil(forKey key: Key) { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try TreeNode.number(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try TreeNode.number(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) { set(.number(Double(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) { set(.number(Double(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) { set(.number(Double(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) { set(.number(Double(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) { set(.number(Double(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) { set(.number(Double(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) { set(.number(Double(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) { set(.number(Double(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) { set(.number(Double(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) { set(.number(Double(value)), key) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        node.set(try TreeNode.encoded(value), at: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        TreeEncoder(node: node.pendingMember(key.stringValue)).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        TreeEncoder(node: node.pendingMember(key.stringValue)).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        TreeEncoder(node: node.pendingMember("super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(node: node.pendingMember(key.stringValue))
    }
}

private struct UnkeyedTreeContainer: UnkeyedEncodingContainer {
    let node: TreeNode
    var codingPath: [any CodingKey] { [] }
    var count: Int { node.elements.count }

    private func add(_ value: JSONValue) { node.append(value) }

    mutating func encodeNil() { add(.null) }
    mutating func encode(_ value: Bool) { add(.bool(value)) }
    mutating func encode(_ value: String) { add(.string(value)) }
    mutating func encode(_ value: Double) throws { add(try TreeNode.number(value)) }
    mutating func encode(_ value: Float) throws { add(try TreeNode.number(value)) }
    mutating func encode(_ value: Int) { add(.number(Double(value))) }
    mutating func encode(_ value: Int8) { add(.number(Double(value))) }
    mutating func encode(_ value: Int16) { add(.number(Double(value))) }
    mutating func encode(_ value: Int32) { add(.number(Double(value))) }
    mutating func encode(_ value: Int64) { add(.number(Double(value))) }
    mutating func encode(_ value: UInt) { add(.number(Double(value))) }
    mutating func encode(_ value: UInt8) { add(.number(Double(value))) }
    mutating func encode(_ value: UInt16) { add(.number(Double(value))) }
    mutating func encode(_ value: UInt32) { add(.number(Double(value))) }
    mutating func encode(_ value: UInt64) { add(.number(Double(value))) }

    mutating func encode(_ value: some Encodable) throws {
        node.append(try TreeNode.encoded(value))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        TreeEncoder(node: node.pendingElement()).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        TreeEncoder(node: node.pendingElement()).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        TreeEncoder(node: node.pendingElement())
    }
}

private struct SingleTreeContainer: SingleValueEncodingContainer {
    let node: TreeNode
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() { node.set(.null) }
    mutating func encode(_ value: Bool) { node.set(.bool(value)) }
    mutating func encode(_ value: String) { node.set(.string(value)) }
    mutating func encode(_ value: Double) throws { node.set(try TreeNode.number(value)) }
    mutating func encode(_ value: Float) throws { node.set(try TreeNode.number(value)) }
    mutating func encode(_ value: Int) { node.set(.number(Double(value))) }
    mutating func encode(_ value: Int8) { node.set(.number(Double(value))) }
    mutating func encode(_ value: Int16) { node.set(.number(Double(value))) }
    mutating func encode(_ value: Int32) { node.set(.number(Double(value))) }
    mutating func encode(_ value: Int64) { node.set(.number(Double(value))) }
    mutating func encode(_ value: UInt) { node.set(.number(Double(value))) }
    mutating func encode(_ value: UInt8) { node.set(.number(Double(value))) }
    mutating func encode(_ value: UInt16) { node.set(.number(Double(value))) }
    mutating func encode(_ value: UInt32) { node.set(.number(Double(value))) }
    mutating func encode(_ value: UInt64) { node.set(.number(Double(value))) }

    mutating func encode(_ value: some Encodable) throws {
        if let special = try TreeNode.foundationValue(value) {
            node.set(special)
        } else {
            try value.encode(to: TreeEncoder(node: node))
        }
    }
}
