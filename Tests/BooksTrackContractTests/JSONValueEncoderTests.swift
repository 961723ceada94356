import BooksTrackContract
import Foundation
import Testing

/// The one encoder of an `Encodable` into a `JSONValue`: each value encodes to the tree `JSONDecoder`
/// reads back from `JSONEncoder()`'s text (the way it was done before), over nested containers,
/// optionals, arrays of structs, enums, super encoders, Foundation's own types, odd numbers and a
/// large array.
@Suite struct JSONValueEncoderTests {
    /// The value through JSON text, as `JSONValue.encoding(_:)` used to make it (`null` on failure).
    static func throughText(_ value: some Encodable) -> JSONValue {
        guard let data = try? JSONEncoder().encode(value) else { return .null }
        return (try? JSONDecoder().decode(JSONValue.self, from: data)) ?? .null
    }

    /// Encodes `value` both ways and expects the same tree (and returns it).
    @discardableResult
    static func expectSame(
        _ value: some Encodable,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> JSONValue {
        let tree = try JSONValueEncoder().encode(value)
        #expect(tree == throughText(value), sourceLocation: sourceLocation)
        #expect(JSONValue.encoding(value) == tree, sourceLocation: sourceLocation)
        return tree
    }

    enum Shelf: String, Codable {
        case toRead = "to-read"
        case reading, done
    }
    enum Rank: Int, Codable {
        case low = 1
        case high = 9
    }
    enum Event: Codable {
        case added(isbn: String, at: Int)
        case moved(Shelf)
        case cleared
    }

    struct Author: Codable, Hashable {
        var name: String
        var born: Int?
    }

    struct Book: Codable {
        var isbn: String
        var title: String?
        var authors: [Author]
        var shelf: Shelf
        var rank: Rank?
        var rating: Double
        var tags: [String: Int]
        var history: [Event]
    }

    static let book = Book(
        isbn: "9780141439518",
        title: nil,
        authors: [Author(name: "Jane Austen", born: 1775), Author(name: "Anon", born: nil)],
        shelf: .toRead,
        rank: .high,
        rating: 4.25,
        tags: ["classic": 3, "romance": 1],
        history: [.added(isbn: "9780141439518", at: 17), .moved(.reading), .cleared]
    )

    @Test func aStructWithArraysOfStructsOptionalsAndEnumsEncodesAsTheTextDid() throws {
        let tree = try Self.expectSame(Self.book)
        // A nil member is left out; a nil inside a value that encodes it (a nested struct's) likewise.
        #expect(tree["title"] == nil)
        #expect(tree["authors"] == [["name": "Jane Austen", "born": 1775], ["name": "Anon"]])
        #expect(tree["shelf"] == "to-read")
        #expect(tree["rank"] == 9)
        #expect(tree["rating"] == 4.25)
        #expect(tree["history"]?.arrayValue?.last == ["cleared": [:]])
        try Self.expectSame([Self.book, Self.book])
    }

    /// Optionals where their `nil` is written: `null` in an array, at the top, and by `encodeNil`.
    @Test func aNilThatIsWrittenIsNull() throws {
        #expect(try Self.expectSame([1, nil, 3] as [Int?]) == [1, nil, 3])
        #expect(try Self.expectSame(Int?.none) == .null)
        #expect(try Self.expectSame(["a": nil, "b": "x"] as [String: String?]) == ["a": nil, "b": "x"])
        #expect(try Self.expectSame(Explicit()) == ["gone": nil, "here": true])
    }

    struct Explicit: Encodable {
        enum Keys: String, CodingKey { case gone, here }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encodeNil(forKey: .gone)
            try c.encode(true, forKey: .here)
        }
    }

    /// Nested keyed and unkeyed containers, filled after the values around them were written.
    struct Nested: Encodable {
        enum Keys: String, CodingKey { case outer, list, after }
        enum Inner: String, CodingKey { case deep, more }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            var outer = c.nestedContainer(keyedBy: Inner.self, forKey: .outer)
            var list = c.nestedUnkeyedContainer(forKey: .list)
            try c.encode("written first", forKey: .after)
            try outer.encode(1, forKey: .deep)
            try list.encode("a")
            var row = list.nestedContainer(keyedBy: Inner.self)
            try list.encode("c")
            var pair = list.nestedUnkeyedContainer()
            try row.encode("b", forKey: .deep)
            try pair.encode(1.5)
            try pair.encodeNil()
            var more = outer.nestedUnkeyedContainer(forKey: .more)
            try more.encode(UInt8(7))
            #expect(list.count == 4)
        }
    }

    @Test func nestedContainersAreFilledWhereTheyWereOpened() throws {
        let tree = try Self.expectSame(Nested())
        #expect(
            tree == [
                "outer": ["deep": 1, "more": [7]], "list": ["a", ["deep": "b"], "c", [1.5, nil]],
                "after": "written first",
            ]
        )
    }

    /// A subclass encoding its superclass through each kind of super encoder.
    class Base: Encodable {
        var id = 7
    }

    final class Derived: Base {
        enum Keys: String, CodingKey { case name, parent }
        override func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode("child", forKey: .name)
            try super.encode(to: c.superEncoder())
            try super.encode(to: c.superEncoder(forKey: .parent))
        }
    }

    struct UnkeyedSuper: Encodable {
        func encode(to encoder: any Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encode(0)
            try Base().encode(to: c.superEncoder())
            try c.encode(2)
        }
    }

    @Test func superEncodersWriteUnderSuperUnderTheirKeyOrAsTheNextElement() throws {
        #expect(try Self.expectSame(Derived()) == ["name": "child", "super": ["id": 7], "parent": ["id": 7]])
        #expect(try Self.expectSame(UnkeyedSuper()) == [0, ["id": 7], 2])
    }

    struct Silent: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    struct EmptyContainers: Encodable {
        enum Keys: String, CodingKey { case object, array }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            _ = c.nestedContainer(keyedBy: Keys.self, forKey: .object)
            _ = c.nestedUnkeyedContainer(forKey: .array)
        }
    }

    @Test func aValueThatWritesNothingInsideAnotherIsAnEmptyObjectAndEmptyContainersStayEmpty() throws {
        // The whole value writing nothing is no JSON document, as JSONEncoder refused it.
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Silent()) }
        #expect(JSONValue.encoding(Silent()) == .null)
        #expect(Self.throughText(Silent()) == .null)
        #expect(try Self.expectSame([Silent()]) == [[:]])
        #expect(try Self.expectSame(EmptyContainers()) == ["object": [:], "array": []])
        #expect(try Self.expectSame([Int]()) == [])
        #expect(try Self.expectSame([String: Int]()) == [:])
    }

    /// Top-level scalars, every integer type at its extremes, floats as their text reads, and
    /// dictionaries keyed by integers.
    @Test func scalarsAndNumbersEncodeAsTheTextReadsBack() throws {
        try Self.expectSame("plain \"quoted\" \u{1} é 😀")
        try Self.expectSame(true)
        try Self.expectSame(Int.min)
        try Self.expectSame([Int8.min, Int8.max].map(Int64.init))
        try Self.expectSame([Int8.min, Int8.max])
        try Self.expectSame([Int16.min, Int16.max])
        try Self.expectSame([Int32.min, Int32.max])
        try Self.expectSame([Int64.min, Int64.max, 9_007_199_254_740_993])
        try Self.expectSame([UInt.max, 0])
        try Self.expectSame([UInt8.max])
        try Self.expectSame([UInt16.max])
        try Self.expectSame([UInt32.max])
        try Self.expectSame([UInt64.max])
        try Self.expectSame([
            0.1, -0.0, 1e-7, 1e300, 123.456, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude,
        ])
        #expect(try Self.expectSame([Float(0.1), Float(3.4e38), Float(-2.5)]) == [0.1, 3.4e38, -2.5])
        #expect(try Self.expectSame([1: "one", 20: "twenty"]) == ["1": "one", "20": "twenty"])
    }

    struct Stamped: Codable {
        var date: Date
        var data: Data
        var url: URL
        var urls: [URL]
        var decimal: Decimal
        var optionalURL: URL?
    }

    /// `Date`, `Data`, `URL` and `Decimal`, which `JSONEncoder` writes its own way, whether a member,
    /// an element, an optional or the value itself.
    @Test func foundationTypesEncodeAsJSONEncoderWritesThem() throws {
        let url = try #require(URL(string: "https://example.com/a/b?c=d#e"))
        let relative = try #require(URL(string: "b/c", relativeTo: URL(string: "https://example.com/a/")))
        let value = Stamped(
            date: Date(timeIntervalSinceReferenceDate: 12_345.678),
            data: Data([0, 1, 2, 250, 255]),
            url: url,
            urls: [relative],
            decimal: Decimal(string: "3.14159") ?? 0,
            optionalURL: url
        )
        let tree = try Self.expectSame(value)
        #expect(tree["date"] == 12_345.678)
        #expect(tree["data"] == "AAEC+v8=")
        #expect(tree["url"] == "https://example.com/a/b?c=d#e")
        #expect(tree["urls"] == ["https://example.com/a/b/c"])
        #expect(tree["decimal"] == 3.14159)
        #expect(try Self.expectSame(url) == "https://example.com/a/b?c=d#e")
        #expect(try Self.expectSame(Data("hi".utf8)) == "aGk=")
        try Self.expectSame(Date(timeIntervalSince1970: 0))
    }

    struct Measured: Encodable {
        var label = "x"
        var value: Double
    }

    /// A number JSON cannot hold fails the whole value, as `JSONEncoder` failed it: `encoding(_:)`
    /// is `null`, as the text's way was.
    @Test func aNonFiniteNumberThrowsAndEncodingIsNull() throws {
        for number in [Double.nan, .infinity, -.infinity] {
            #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Measured(value: number)) }
            #expect(throws: EncodingError.self) { try JSONValueEncoder().encode([number]) }
            #expect(JSONValue.encoding(Measured(value: number)) == .null)
            #expect(Self.throughText(Measured(value: number)) == .null)
        }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Float.nan) }
        // A JSONValue holding one writes it as null (its own encoding), both ways.
        #expect(try Self.expectSame(JSONValue.array([.number(.nan), 1])) == [nil, 1])
    }

    @Test func aJSONValueEncodesToItself() throws {
        let value: JSONValue = [
            "a": [1, 2.5, "three", true, nil, [:], []], "b": ["c": ["d": -4]], "e": 9_007_199_254_740_993,
        ]
        #expect(try Self.expectSame(value) == value)
    }

    struct Symbol: Encodable {
        var name: String
        var kind: Int
        var range: [String: [String: Int]]
        var detail: String?
    }

    /// 200,000 structs (a large document's symbols): every one in place, in order.
    @Test func aLargeArrayOfStructsEncodesEveryElement() throws {
        let count = 200_000
        let symbols = (0..<count).map { index in
            Symbol(
                name: "s\(index)",
                kind: index % 26,
                range: ["start": ["line": index, "character": 0], "end": ["line": index, "character": 5]],
                detail: index.isMultiple(of: 2) ? nil : "odd"
            )
        }
        let elements = try #require(try JSONValueEncoder().encode(symbols).arrayValue)
        #expect(elements.count == count)
        #expect(
            elements[0] == [
                "name": "s0", "kind": 0,
                "range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 5]],
            ]
        )
        #expect(elements[count - 1]["name"] == "s199999")
        #expect(elements[count - 1]["detail"] == "odd")
        #expect(elements.indices.allSatisfy { elements[$0]["range"]?["end"]?["line"] == .number(Double($0)) })
        // A slice of them as the text's way had them.
        try Self.expectSame(Array(symbols[..<500]))
    }
}
