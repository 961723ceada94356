import Foundation

/// Decodes a `Decodable` from a `JSONTree`, giving `JSONCoding.decoder()`'s result or none.
///
/// `JSONDecoder` makes a dictionary per object and looks up generic metadata per container, a large
/// share of a lookup's client time. This decoder walks a parsed tree with linear key search
/// instead. It returns `nil` whenever it cannot promise `JSONDecoder`'s result — the parser
/// gave up, a value asks for something this decoder leaves alone (a `Date`, `URL`, `Data` or
/// `Decimal`, an integer type other than `Int`, a float, a super-decoder, an `Int` written with a
/// fraction or exponent, a `Double` written with an exponent) or decoding failed at all — and the
/// caller then uses `JSONDecoder`, so errors and edge cases keep one source. A test holds the two
/// to the same result over fixtures of real bodies and thousands of mutations of them.
package enum JSONTreeDecoding {
    /// `type` decoded from `data`, or `nil`: use `JSONCoding.decoder()`.
    package static func decode<T: Decodable>(_ type: T.Type, from data: Data) -> T? {
        guard let tree = data.withUnsafeBytes({ JSONTree.parse($0) }) else { return nil }
        let decoder = JSONTreeDecoder(tree: tree, node: 0, parent: nil, key: nil)
        guard let value: T = try? decoder.decodeHere(), !tree.gaveUp else { return nil }
        return value
    }
}

/// Thrown (and recorded in the tree, in case a `try?` swallows it) where the result might differ
/// from `JSONDecoder`'s.
struct JSONTreeGiveUp: Error {}

/// A decoder for one value of the tree. A class: a nested value costs one allocation (this
/// object, which is also its step of the coding path, linked to its parent's) where a struct cost
/// two (a path step, and a box for the `any Decoder` it is passed as: it did not fit the
/// existential's inline buffer); the containers holding it fit theirs.
final class JSONTreeDecoder: Decoder {
    let tree: JSONTree
    /// The index of this value's node in the tree.
    let node: Int
    /// The decoder of the enclosing value, and this value's key in it (nil: the same position).
    let parent: JSONTreeDecoder?
    let key: (any CodingKey)?
    /// An object's: the key node of the member after the one last looked up (where the next
    /// look-up starts).
    var nextMember: Int

    init(tree: JSONTree, node: Int, parent: JSONTreeDecoder?, key: (any CodingKey)?) {
        self.tree = tree
        self.node = node
        self.parent = parent
        self.key = key
        nextMember = node + 1
    }

    var codingPath: [any CodingKey] {
        var keys: [any CodingKey] = []
        var step: JSONTreeDecoder? = self
        while let current = step {
            if let key = current.key { keys.append(key) }
            step = current.parent
        }
        return keys.reversed()
    }

    /// The decoder for `node`, a value under `key` of this one.
    func nested(_ node: Int, at key: (any CodingKey)?) -> JSONTreeDecoder {
        JSONTreeDecoder(tree: tree, node: node, parent: self, key: key)
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func giveUp() -> JSONTreeGiveUp {
        tree.gaveUp = true
        return JSONTreeGiveUp()
    }

    func mismatch(_ type: Any.Type, _ node: Int, at key: (any CodingKey)?) -> DecodingError {
        if tree.kind(node) == .null {
            return .valueNotFound(type, .init(codingPath: path(key), debugDescription: "null"))
        }
        return .typeMismatch(type, .init(codingPath: path(key), debugDescription: "another kind of value"))
    }

    func path(_ key: (any CodingKey)?) -> [any CodingKey] {
        guard let key else { return codingPath }
        return codingPath + [key]
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try keyedContainer(keyedBy: type))
    }

    /// The keyed container itself, for a type whose decoding is generic over `KeyedFields`.
    func keyedContainer<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedContainer<Key> {
        guard tree.kind(node) == .object else { throw mismatch([String: Any].self, node, at: nil) }
        return KeyedContainer<Key>(decoder: self)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard tree.kind(node) == .array else { throw mismatch([Any].self, node, at: nil) }
        return UnkeyedContainer(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(decoder: self) }

    // MARK: values

    func decodeString(_ node: Int, at key: (any CodingKey)?) throws -> String {
        guard tree.kind(node) == .string else { throw mismatch(String.self, node, at: key) }
        return tree.string(node)
    }

    func decodeBool(_ node: Int, at key: (any CodingKey)?) throws -> Bool {
        let value = tree.nodes[node]
        guard value.kind == .bool else { throw mismatch(Bool.self, node, at: key) }
        return value.flag
    }

    func decodeInt(_ node: Int, at key: (any CodingKey)?) throws -> Int {
        let value = tree.nodes[node]
        switch value.kind {
        case .integer: return value.integer
        case .number: throw giveUp()  // 1.0 and 1e2 are integers to JSONDecoder
        default: throw mismatch(Int.self, node, at: key)
        }
    }

    func decodeDouble(_ node: Int, at key: (any CodingKey)?) throws -> Double {
        let value = tree.nodes[node]
        switch value.kind {
        case .integer: return Double(value.integer)
        case .number:
            // JSONDecoder refuses what overflows or underflows; exponents and long texts are its.
            let text = tree.numberText(node)
            guard text.utf8.count <= 24,
                !text.utf8.contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
                let d = Double(text), d.isFinite
            else { throw giveUp() }
            return d
        default: throw mismatch(Double.self, node, at: key)
        }
    }

    /// Any `Decodable` under `key` of this value.
    func decodeValue<T: Decodable>(_ node: Int, at key: (any CodingKey)?) throws -> T {
        try decode(node, at: key) { nested(node, at: key) }
    }

    /// This decoder's own value as `T` (no second decoder for the same node).
    func decodeHere<T: Decodable>() throws -> T {
        try decode(node, at: nil) { self }
    }

    /// The four primitives and an array of strings directly, the types `JSONDecoder` treats
    /// specially given up, everything else through its own `init(from:)` on `decoder()`. (Each
    /// `unsafeBitCast` follows the check that `T` is that very type: no dynamic cast per value.)
    private func decode<T: Decodable>(
        _ node: Int,
        at key: (any CodingKey)?,
        decoder: () -> JSONTreeDecoder
    ) throws -> T {
        if T.self == String.self { return unsafeBitCast(try decodeString(node, at: key), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try decodeInt(node, at: key), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try decodeDouble(node, at: key), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try decodeBool(node, at: key), to: T.self) }
        if T.self == [String].self, let strings = strings(node) { return unsafeBitCast(strings, to: T.self) }
        if T.self == Date.self || T.self == URL.self || T.self == Data.self || T.self == Decimal.self {
            throw giveUp()
        }
        return try T(from: decoder())
    }

    /// An array whose elements are all strings, as `[String]` (anything else takes the general path,
    /// which names the element that does not fit).
    func strings(_ node: Int) -> [String]? {
        guard tree.kind(node) == .array else { return nil }
        let count = Int(tree.nodes[node].count)
        var strings: [String] = []
        strings.reserveCapacity(count)
        var element = node + 1
        for _ in 0..<count {
            guard tree.kind(element) == .string else { return nil }
            strings.append(tree.string(element))
            element += 1
        }
        return strings
    }
}

extension JSONTreeDecoder {
    /// Array elements' coding keys.
    struct IndexKey: CodingKey {
        var intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol, KeyedFields {
        let decoder: JSONTreeDecoder

        var codingPath: [any CodingKey] { decoder.codingPath }
        var allKeys: [Key] { decoder.tree.keys(decoder.node).compactMap { Key(stringValue: $0) } }

        /// The index of the member's value node.
        func value(_ key: Key) -> Int? {
            guard let member = decoder.tree.member(in: decoder.node, named: key.stringValue, from: decoder.nextMember)
            else { return nil }
            decoder.nextMember = decoder.tree.nextMember(member)
            return member + 1
        }

        func required(_ key: Key) throws -> Int {
            guard let node = value(key) else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "absent"))
            }
            return node
        }

        func contains(_ key: Key) -> Bool { value(key) != nil }

        func decodeNil(forKey key: Key) throws -> Bool {
            decoder.tree.kind(try required(key)) == .null
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            try decoder.decodeBool(required(key), at: key)
        }
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            try decoder.decodeString(required(key), at: key)
        }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            try decoder.decodeDouble(required(key), at: key)
        }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.decodeInt(required(key), at: key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw decoder.giveUp() }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { throw decoder.giveUp() }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { throw decoder.giveUp() }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { throw decoder.giveUp() }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { throw decoder.giveUp() }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { throw decoder.giveUp() }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { throw decoder.giveUp() }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { throw decoder.giveUp() }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { throw decoder.giveUp() }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { throw decoder.giveUp() }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try decoder.decodeValue(required(key), at: key)
        }

        // One lookup instead of the default's three (`contains`, `decodeNil`, `decode`).
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            guard let node = value(key) else { return nil }
            if decoder.tree.kind(node) == .null { return nil }
            return try decoder.decodeString(node, at: key)
        }
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            guard let node = value(key) else { return nil }
            if decoder.tree.kind(node) == .null { return nil }
            return try decoder.decodeBool(node, at: key)
        }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
            guard let node = value(key) else { return nil }
            if decoder.tree.kind(node) == .null { return nil }
            return try decoder.decodeInt(node, at: key)
        }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
            guard let node = value(key) else { return nil }
            if decoder.tree.kind(node) == .null { return nil }
            return try decoder.decodeDouble(node, at: key)
        }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let node = value(key) else { return nil }
            if decoder.tree.kind(node) == .null { return nil }
            return try decoder.decodeValue(node, at: key) as T
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type,
            forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try decoder.nested(required(key), at: key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoder.nested(required(key), at: key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { throw decoder.giveUp() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw decoder.giveUp() }

        /// Each element straight from the tree (no unkeyed container, no `Array.init(from:)`).
        func decodeArrayOrEmpty<E: Decodable>(_ type: E.Type, forKey key: Key) throws -> [E] {
            guard let node = value(key) else { return [] }
            let tree = decoder.tree
            switch tree.kind(node) {
            case .null: return []
            case .array:
                let list = decoder.nested(node, at: key)
                let count = Int(tree.nodes[node].count)
                var values: [E] = []
                values.reserveCapacity(count)
                var element = node + 1
                for index in 0..<count {
                    values.append(try list.decodeValue(element, at: IndexKey(index)))
                    element = tree.after(element)
                }
                return values
            default: throw decoder.mismatch([E].self, node, at: key)
            }
        }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let decoder: JSONTreeDecoder
        let elements: Int
        var currentIndex = 0
        /// The node of the element at `currentIndex`.
        var position: Int

        init(decoder: JSONTreeDecoder) {
            self.decoder = decoder
            elements = Int(decoder.tree.nodes[decoder.node].count)
            position = decoder.node + 1
        }

        var codingPath: [any CodingKey] { decoder.codingPath }
        var count: Int? { elements }
        var isAtEnd: Bool { currentIndex >= elements }

        /// The next element and its key (the caller consumes it once it decoded).
        func peek(_ type: Any.Type) throws -> (Int, IndexKey) {
            let key = IndexKey(currentIndex)
            guard currentIndex < elements else {
                throw DecodingError.valueNotFound(
                    type,
                    .init(codingPath: decoder.path(key), debugDescription: "at end")
                )
            }
            return (position, key)
        }

        mutating func advance() {
            position = decoder.tree.after(position)
            currentIndex += 1
        }

        /// Reads the next element with `read` (given the decoder, so that it captures nothing)
        /// and consumes it once read.
        mutating func next<T>(_ type: T.Type, _ read: (JSONTreeDecoder, Int, IndexKey) throws -> T) throws -> T {
            let (node, key) = try peek(type)
            let value = try read(decoder, node, key)
            advance()
            return value
        }

        mutating func decodeNil() throws -> Bool {
            guard currentIndex < elements else {
                throw DecodingError.valueNotFound(
                    Any?.self,
                    .init(codingPath: decoder.path(IndexKey(currentIndex)), debugDescription: "at end")
                )
            }
            if decoder.tree.kind(position) == .null {
                advance()
                return true
            }
            return false
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.decodeBool($1, at: $2) } }
        mutating func decode(_ type: String.Type) throws -> String {
            try next(type) { try $0.decodeString($1, at: $2) }
        }
        mutating func decode(_ type: Double.Type) throws -> Double {
            try next(type) { try $0.decodeDouble($1, at: $2) }
        }
        mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.decodeInt($1, at: $2) } }
        mutating func decode(_ type: Float.Type) throws -> Float { throw decoder.giveUp() }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { throw decoder.giveUp() }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { throw decoder.giveUp() }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { throw decoder.giveUp() }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { throw decoder.giveUp() }
        mutating func decode(_ type: UInt.Type) throws -> UInt { throw decoder.giveUp() }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { throw decoder.giveUp() }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { throw decoder.giveUp() }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { throw decoder.giveUp() }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { throw decoder.giveUp() }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try next(type) { try $0.decodeValue($1, at: $2) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) throws -> KeyedDecodingContainer<NestedKey> {
            let (node, key) = try peek(KeyedDecodingContainer<NestedKey>.self)
            let container = try decoder.nested(node, at: key).container(keyedBy: type)
            advance()
            return container
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let (node, key) = try peek((any UnkeyedDecodingContainer).self)
            let container = try decoder.nested(node, at: key).unkeyedContainer()
            advance()
            return container
        }

        mutating func superDecoder() throws -> any Decoder { throw decoder.giveUp() }
    }

    struct SingleValueContainer: SingleValueDecodingContainer {
        let decoder: JSONTreeDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }
        var node: Int { decoder.node }

        func decodeNil() -> Bool { decoder.tree.kind(node) == .null }

        func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool(node, at: nil) }
        func decode(_ type: String.Type) throws -> String { try decoder.decodeString(node, at: nil) }
        func decode(_ type: Double.Type) throws -> Double { try decoder.decodeDouble(node, at: nil) }
        func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInt(node, at: nil) }
        func decode(_ type: Float.Type) throws -> Float { throw decoder.giveUp() }
        func decode(_ type: Int8.Type) throws -> Int8 { throw decoder.giveUp() }
        func decode(_ type: Int16.Type) throws -> Int16 { throw decoder.giveUp() }
        func decode(_ type: Int32.Type) throws -> Int32 { throw decoder.giveUp() }
        func decode(_ type: Int64.Type) throws -> Int64 { throw decoder.giveUp() }
        func decode(_ type: UInt.Type) throws -> UInt { throw decoder.giveUp() }
        func decode(_ type: UInt8.Type) throws -> UInt8 { throw decoder.giveUp() }
        func decode(_ type: UInt16.Type) throws -> UInt16 { throw decoder.giveUp() }
        func decode(_ type: UInt32.Type) throws -> UInt32 { throw decoder.giveUp() }
        func decode(_ type: UInt64.Type) throws -> UInt64 { throw decoder.giveUp() }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeHere() }
    }
}
