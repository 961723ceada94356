import BooksTrackContract

extension LanguageServerResults {
    /// `message` as the JSON written to the stream (and handed to the tests): encoded straight into
    /// a ``JSONValue`` tree, with no text in between (a document's symbols may be 200,000 of them).
    /// The results are plain values whose encoding does not throw; one that did would be `null`.
    static func json(_ message: some Encodable) -> JSONValue {
        (try? TreeNode.encoded(message)) ?? .null
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
    static func encoded(_ value: some Encodable) throws -> JSONValue {
        let node = TreeNode()
        try value.encode(to: TreeEncoder(node: node))
        return node.json
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

/// The encoder (and its containers) of one node. No result reads its coding path: none is kept
/// (each nested value would allocate one).
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
    mutating func encode(_ value: Double, forKey key: Key) { set(.number(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) { set(.number(Double(value)), key) }
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
    mutating func encode(_ value: Double) { add(.number(value)) }
    mutating func encode(_ value: Float) { add(.number(Double(value))) }
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
    mutating func encode(_ value: Double) { node.set(.number(value)) }
    mutating func encode(_ value: Float) { node.set(.number(Double(value))) }
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
        try value.encode(to: TreeEncoder(node: node))
    }
}
