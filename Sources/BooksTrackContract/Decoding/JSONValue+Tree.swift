import Foundation

extension JSONValue {
    /// The JSON document `data` as a value, or nil when it is not JSON. Read from `JSONTree` in one
    /// pass (no error thrown and caught per element, as `JSONValue`'s `Decodable` reading does for
    /// every value that is not a `Bool`: 100,000 `errors[]` of a problem took seconds); where the
    /// tree cannot promise `JSONDecoder`'s reading (it gave up), `JSONDecoder` reads it.
    package static func parse(_ data: Data) -> JSONValue? {
        if let tree = data.withUnsafeBytes({ JSONTree.parse($0) }), let value = tree.jsonValue(0) { return value }
        return try? JSONCoding.decoder().decode(JSONValue.self, from: data)
    }
}

extension JSONTree {
    /// The value at `node`, as `JSONDecoder` reads a `JSONValue` there; nil where a number does not
    /// read as a `Double`.
    func jsonValue(_ node: Int) -> JSONValue? {
        let value = nodes[node]
        switch value.kind {
        case .null:
            return .null
        case .bool:
            return .bool(value.flag)
        case .integer:
            return .number(Double(value.integer))
        case .number:
            return Double(numberText(node)).map(JSONValue.number)
        case .string:
            return .string(string(node))
        case .array:
            var items: [JSONValue] = []
            items.reserveCapacity(Int(value.count))
            var child = node + 1
            for _ in 0..<value.count {
                guard let item = jsonValue(child) else { return nil }
                items.append(item)
                child = after(child)
            }
            return .array(items)
        case .object:
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(Int(value.count))
            var member = node + 1
            for _ in 0..<value.count {
                guard let item = jsonValue(member + 1) else { return nil }
                members[string(member)] = item
                member = nextMember(member)
            }
            return .object(members)
        }
    }
}
