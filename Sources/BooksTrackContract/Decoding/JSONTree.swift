import Foundation

/// A parsed JSON document for `JSONTreeDecoder`: strict RFC 8259 only.
///
/// The parser promises one thing: when it returns a tree, `JSONDecoder` would read the same
/// document the same way. Anything `JSONDecoder` reads differently or leniently (a duplicate key —
/// it keeps the first —, a trailing comma, a byte-order mark, a lone surrogate, invalid UTF-8, an
/// exponent or a fraction where it might round) makes the parser give up (`nil`), and the caller
/// uses `JSONDecoder` itself. So does a key written with an escape or a non-ASCII character (such
/// a key is compared as text, not as bytes; the contract's keys are ASCII).
///
/// The tree is a tape: one `Node` per value in document order — an object's members as a key's
/// node followed by its value's nodes — over the tree's own copy of the bytes. A plain string stays
/// a range of the bytes until a decoder asks for it, and a key is compared with a coding key's
/// bytes where it lies. The tree of enum values it replaced made a `String` for every key and
/// value and an array per object while parsing and freed them all after decoding.
final class JSONTree {
    struct Node {
        enum Kind: UInt8 { case null, bool, integer, number, string, array, object }
        /// `.integer`: the value. A key's `.string`: the index of the next member's key (or the
        /// node after the object). `.object`: one bit per member, its key's `signature`.
        var integer = 0
        /// `.array`: its elements; `.object`: its members.
        var count: Int32 = 0
        /// `.string` and `.number`: the offset of the first byte (a string's after its quote), or
        /// for a string kept as text, its index in `texts`.
        var first: Int32 = 0
        /// `.string` and `.number`: the offset past the last byte. `.array` and `.object`: the
        /// index of the node after the last of its descendants.
        var last: Int32 = 0
        var kind: Kind
        /// `.bool`: the value. `.string`: kept as text in `texts` (it had an escape or a
        /// non-ASCII character, and was decoded and validated while parsing).
        var flag = false
    }

    /// The nodes, the document's value first (the tree's own buffer, freed with it: read without
    /// reference counting, unlike an array held by a class).
    let nodes: UnsafeBufferPointer<Node>
    /// Strings kept as text (see `Node.flag`).
    private let texts: [String]
    /// The tree's copy of the document's bytes (freed with the tree).
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Set by a decoder of this tree where its result might differ from `JSONDecoder`'s (in case a
    /// `try?` swallows the error it threw).
    var gaveUp = false

    private init(copying raw: UnsafeBufferPointer<UInt8>, nodes: [Node], texts: [String]) {
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(raw.count, 1))
        _ = bytes.initialize(from: raw)
        let copy = UnsafeMutableBufferPointer<Node>.allocate(capacity: max(nodes.count, 1))
        _ = copy.initialize(from: nodes)
        self.bytes = UnsafeBufferPointer(rebasing: bytes[0..<raw.count])
        self.nodes = UnsafeBufferPointer(rebasing: copy[0..<nodes.count])
        self.texts = texts
    }

    deinit {
        // Nodes and bytes are plain values: nothing to deinitialize.
        UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.deallocate()
        UnsafeMutableRawPointer(mutating: nodes.baseAddress)?.deallocate()
    }

    /// The tree of `raw`, or `nil` when the parser cannot promise `JSONDecoder`'s reading.
    static func parse(_ raw: UnsafeRawBufferPointer) -> JSONTree? {
        guard raw.count < Int(Int32.max) else { return nil }
        let source = raw.bindMemory(to: UInt8.self)
        var parser = Parser(bytes: source)
        // About one node per eight bytes in the contract's bodies.
        parser.nodes.reserveCapacity(min(raw.count / 8, 4_096) + 16)
        guard parser.value(depth: 0) else { return nil }
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { return nil }
        return JSONTree(copying: source, nodes: parser.nodes, texts: parser.texts)
    }

    /// Nesting deeper than this is left to `JSONDecoder` (keeps the recursion bounded).
    static let maxDepth = 128

    // MARK: reading

    func kind(_ node: Int) -> Node.Kind { nodes[node].kind }

    /// The index of the node after `node` and its descendants.
    func after(_ node: Int) -> Int {
        let value = nodes[node]
        return value.kind == .array || value.kind == .object ? Int(value.last) : node + 1
    }

    /// A `.string` node's text.
    func string(_ node: Int) -> String {
        let value = nodes[node]
        if value.flag { return texts[Int(value.first)] }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(value.first)..<Int(value.last)]), as: UTF8.self)
    }

    /// A `.number` node as written.
    func numberText(_ node: Int) -> String {
        let value = nodes[node]
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(value.first)..<Int(value.last)]), as: UTF8.self)
    }

    /// The `.object` node's member keys, in document order.
    func keys(_ object: Int) -> [String] {
        var keys: [String] = []
        var member = object + 1
        for _ in 0..<nodes[object].count {
            keys.append(string(member))
            member = nextMember(member)
        }
        return keys
    }

    /// The key node of the `.object` node's member `name`, if it has one, looking from the member
    /// whose key node is `start` to the last, then from the first. (A decoder reading its keys in
    /// the document's order finds each where it looks first; keys are unique, so the order of
    /// the search does not change what it finds.)
    func member(in object: Int, named name: String, from start: Int) -> Int? {
        let first = object + 1
        let end = Int(nodes[object].last)
        let count = Int(nodes[object].count)
        let keys = nodes[object].integer
        guard let base = bytes.baseAddress else { return nil }
        var name = name
        return name.withUTF8 { name in
            // Most keys a decoder asks for and the object lacks end here.
            guard keys & Self.signature(name.count, last: name.last ?? 0) != 0 else { return nil }
            var member = start
            for _ in 0..<count {
                if member >= end { member = first }
                let key = nodes[member]
                if Int(key.last - key.first) == name.count,
                    name.isEmpty || name.baseAddress.map({ memcmp(base + Int(key.first), $0, name.count) == 0 }) == true
                {
                    return member
                }
                member = key.integer
            }
            return nil
        }
    }

    /// A key's bit in its object's node: by its length and last byte (a filter: keys may share one).
    static func signature(_ length: Int, last: UInt8) -> Int {
        1 &<< ((length &* 7 &+ Int(last)) & 63)
    }

    /// The key node of the member after the one whose key node is `member`, or the node after the
    /// object.
    func nextMember(_ member: Int) -> Int { nodes[member].integer }

    // MARK: parsing

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var nodes: [Node] = []
        var texts: [String] = []

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) -> Bool {
            skipWhitespace()
            guard index < bytes.count, depth <= JSONTree.maxDepth else { return false }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true", Node(kind: .bool, flag: true))
            case UInt8(ascii: "f"): return literal("false", Node(kind: .bool, flag: false))
            case UInt8(ascii: "n"): return literal("null", Node(kind: .null))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return false
            }
        }

        mutating func literal(_ word: StaticString, _ node: Node) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            nodes.append(node)
            return true
        }

        /// Ends the container whose node is at `container`.
        mutating func close(_ container: Int, count: Int32, keys: Int = 0) {
            nodes[container].count = count
            nodes[container].integer = keys
            nodes[container].last = Int32(nodes.count)
        }

        /// Two plain strings' nodes are the same bytes.
        func sameBytes(_ a: Node, _ b: Node) -> Bool {
            guard a.last - a.first == b.last - b.first else { return false }
            guard let base = bytes.baseAddress else { return true }
            return memcmp(base + Int(a.first), base + Int(b.first), Int(a.last - a.first)) == 0
        }

        mutating func object(depth: Int) -> Bool {
            index += 1  // {
            let container = nodes.count
            nodes.append(Node(kind: .object))
            var count: Int32 = 0
            var keys = 0
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                close(container, count: count)
                return true
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), string() else { return false }
                let keyIndex = nodes.count - 1
                let key = nodes[keyIndex]
                // A key kept as text is compared as text: left to JSONDecoder. So is a duplicate
                // key (JSONDecoder keeps the first). Lengths first: most keys differ in length.
                guard !key.flag else { return false }
                let length = Int(key.last - key.first)
                let bit = JSONTree.signature(length, last: length == 0 ? 0 : bytes[Int(key.last) - 1])
                if keys & bit != 0 {
                    var member = container + 1
                    for _ in 0..<count {
                        let other = nodes[member]
                        if sameBytes(other, key) { return false }
                        member = other.integer
                    }
                }
                keys |= bit
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
                index += 1
                guard value(depth: depth + 1) else { return false }
                nodes[keyIndex].integer = nodes.count
                count += 1
                skipWhitespace()
                guard index < bytes.count else { return false }
                switch bytes[index] {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    close(container, count: count, keys: keys)
                    return true
                default: return false
                }
            }
        }

        mutating func array(depth: Int) -> Bool {
            index += 1  // [
            let container = nodes.count
            nodes.append(Node(kind: .array))
            var count: Int32 = 0
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                close(container, count: count)
                return true
            }
            while true {
                guard value(depth: depth + 1) else { return false }
                count += 1
                skipWhitespace()
                guard index < bytes.count else { return false }
                switch bytes[index] {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"):
                    index += 1
                    close(container, count: count)
                    return true
                default: return false
                }
            }
        }

        /// A string starting at the opening quote, as a node: a range of the bytes when it is
        /// plain ASCII, else its text (decoded and validated now).
        mutating func string() -> Bool {
            switch scanString() {
            case .plain(let range)?:
                nodes.append(Node(first: Int32(range.lowerBound), last: Int32(range.upperBound), kind: .string))
            case .text(let text)?:
                nodes.append(Node(first: Int32(texts.count), kind: .string, flag: true))
                texts.append(text)
            case nil:
                return false
            }
            return true
        }

        enum Scanned {
            case plain(Range<Int>)
            case text(String)
        }

        /// The string starting at the opening quote.
        mutating func scanString() -> Scanned? {
            index += 1  // "
            let start = index
            var ascii = true
            // Eight bytes at a time while none is a quote, a backslash or a control byte (the
            // bytes are then looked at one by one from the word that has one).
            if let base = bytes.baseAddress {
                let ones: UInt64 = 0x0101_0101_0101_0101
                let highs: UInt64 = 0x8080_8080_8080_8080
                while bytes.count - index >= 8 {
                    // Little-endian order whatever the machine's: the first byte is the lowest.
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                    let quote = word ^ (ones &* 0x22)
                    let backslash = word ^ (ones &* 0x5C)
                    let special =
                        ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (word &- ones &* 0x20) & ~word)
                        & highs
                    if special != 0 {
                        // The lowest flagged byte is the first special one (a flag can only be
                        // wrong above a true one); the bytes before it are plain.
                        let plain = special.trailingZeroBitCount / 8
                        if word & highs & ((1 &<< UInt64(plain * 8)) &- 1) != 0 { ascii = false }
                        index += plain
                        break
                    }
                    if word & highs != 0 { ascii = false }
                    index += 8
                }
            }
            // The common case: no escapes; one scan, one copy.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    if ascii { return .plain(start..<index - 1) }
                    return String(validating: slice, as: UTF8.self).map(Scanned.text)
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { return nil }
                if byte >= 0x80 { ascii = false }
                index += 1
            }
            guard index < bytes.count else { return nil }
            var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return String(validating: decoded, as: UTF8.self).map(Scanned.text)
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                    case UInt8(ascii: "b"): decoded.append(0x08)
                    case UInt8(ascii: "f"): decoded.append(0x0C)
                    case UInt8(ascii: "n"): decoded.append(0x0A)
                    case UInt8(ascii: "r"): decoded.append(0x0D)
                    case UInt8(ascii: "t"): decoded.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = unicodeEscape() else { return nil }
                        decoded.append(contentsOf: UTF8.encode(scalar).map { Array($0) } ?? [])
                    default: return nil
                    }
                default:
                    if byte < 0x20 { return nil }
                    decoded.append(byte)
                    index += 1
                }
            }
            return nil
        }

        /// The scalar of `XXXX` (after `\u`), joining a surrogate pair; a lone surrogate is `nil`.
        mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(high) {
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                else { return nil }
                index += 2
                guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            }
            return Unicode.Scalar(high)
        }

        mutating func hex4() -> UInt32? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
        mutating func number() -> Bool {
            let start = index
            let negative = bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            func digits(_ parser: inout Parser) -> Int {
                var count = 0
                while parser.index < parser.bytes.count,
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index])
                {
                    parser.index += 1
                    count += 1
                }
                return count
            }
            let integerStart = index
            let integerDigits = digits(&self)
            guard integerDigits > 0 else { return false }
            if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { return false }
            var plain = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits(&self) > 0 else { return false }
                plain = false
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits(&self) > 0 else { return false }
                plain = false
            }
            // `-0` stays text: as a Double it is negative zero.
            if plain, integerDigits <= 18, !(negative && integerDigits == 1 && bytes[integerStart] == UInt8(ascii: "0"))
            {
                var value = 0
                for offset in integerStart..<index { value = value * 10 + Int(bytes[offset] - UInt8(ascii: "0")) }
                nodes.append(Node(integer: negative ? -value : value, kind: .integer))
                return true
            }
            nodes.append(Node(first: Int32(start), last: Int32(index), kind: .number))
            return true
        }
    }
}
