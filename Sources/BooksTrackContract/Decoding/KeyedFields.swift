/// The keyed reads a type's `init(from:)` makes, over either container: `KeyedDecodingContainer`
/// (any decoder) or the tree decoder's own (the fast path, with no box, no thunks and no generic
/// metadata per field). A hot type writes its decoding once, generic over this, and picks the
/// container in `init(from:)`.
protocol KeyedFields<Key> {
    associatedtype Key: CodingKey
    var codingPath: [any CodingKey] { get }
    func contains(_ key: Key) -> Bool
    func decodeNil(forKey key: Key) throws -> Bool
    func decode(_ type: String.Type, forKey key: Key) throws -> String
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String?
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool?
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int?
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double?
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T?
    /// An array that may be absent or null (then empty).
    func decodeArrayOrEmpty<E: Decodable>(_ type: E.Type, forKey key: Key) throws -> [E]
}

extension KeyedFields {
    func decodeArrayOrEmpty<E: Decodable>(_ type: E.Type, forKey key: Key) throws -> [E] {
        try decodeIfPresent([E].self, forKey: key) ?? []
    }
}

extension KeyedDecodingContainer: KeyedFields {}

/// A type whose decoding reads its keyed fields and nothing else, written once over `KeyedFields`;
/// its `init(from:)` is `init(decodingFieldsFrom:)`.
protocol FieldsDecodable: Decodable {
    associatedtype CodingKeys: CodingKey
    init<Fields: KeyedFields<CodingKeys>>(fields: Fields) throws
}

extension FieldsDecodable {
    /// The fields from the tree decoder's own container when `decoder` is one, else from
    /// `KeyedDecodingContainer`.
    init(decodingFieldsFrom decoder: any Decoder) throws {
        if let tree = decoder as? JSONTreeDecoder {
            try self.init(fields: tree.keyedContainer(keyedBy: CodingKeys.self))
        } else {
            try self.init(fields: decoder.container(keyedBy: CodingKeys.self))
        }
    }
}
