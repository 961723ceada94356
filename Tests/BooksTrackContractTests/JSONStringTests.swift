import BooksTrackContract
import Foundation
import Testing

/// The one writer of JSON string literals: what it always escapes (quotes, backslashes, every C0
/// control), what each escaping adds (`\b` `\f`; DEL, C1, U+2028/U+2029 and others as `\uxxxx`,
/// past U+FFFF as a surrogate pair), that its pieces make the literal, and the value writer on it.
@Suite struct JSONStringTests {
    /// Every C0 control with its escape under `.contract` (backspace and form feed short).
    static let controls: [(Unicode.Scalar, String)] = (0..<0x20).compactMap { value in
        guard let scalar = Unicode.Scalar(UInt32(value)) else { return nil }
        let short: [UInt32: String] = [0x08: #"\b"#, 0x09: #"\t"#, 0x0A: #"\n"#, 0x0C: #"\f"#, 0x0D: #"\r"#]
        let hex = String(value, radix: 16)
        return (scalar, short[UInt32(value)] ?? #"\u00"# + (hex.count == 1 ? "0" : "") + hex)
    }

    @Test func quotesBackslashesAndEveryControlAreEscaped() {
        #expect(JSONString.literal(#"say "hi" \ bye"#, .contract) == #""say \"hi\" \\ bye""#)
        for (scalar, escaped) in Self.controls {
            #expect(
                JSONString.literal("a" + String(scalar) + "b", .contract) == "\"a" + escaped + "b\"",
                "U+\(scalar.value)"
            )
        }
        #expect(JSONString.literal("", .contract) == #""""#)
        #expect(JSONString.literal("plain ascii / 123", .contract) == #""plain ascii / 123""#)
    }

    @Test func backspaceAndFormFeedAreShortOnlyWhenAsked() {
        let long = JSONString.Escaping(shortBackspaceAndFormFeed: false, alsoEscaped: nil)
        #expect(JSONString.literal("\u{8}\u{C}", .contract) == #""\b\f""#)
        #expect(JSONString.literal("\u{8}\u{C}\u{1B}", long) == #""\u0008\u000c\u001b""#)
    }

    @Test func theContractEscapingWritesEverythingElseAsItIs() {
        let text = "\u{7F}\u{85}\u{2028}\u{2029}\u{FEFF}\u{202E}é😀"
        #expect(JSONString.literal(text, .contract) == "\"" + text + "\"")
    }

    @Test func anEscapingAddsTheScalarsItNames() {
        let separators = JSONString.Escaping(shortBackspaceAndFormFeed: false) { scalar in
            scalar.value == 0x7F || scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029
                || scalar.value == 0x1F600
        }
        #expect(
            JSONString.literal("a\u{7F}b\u{85}c\u{2028}d\u{2029}e", separators) == #""a\u007fb\u0085c\u2028d\u2029e""#
        )
        #expect(JSONString.literal("é😀ü", separators) == #""é\ud83d\ude00ü""#, "past U+FFFF: a surrogate pair")
        #expect(JSONString.literal("\"\\\n\u{0}", separators) == #""\"\\\n\u0000""#, "what JSON needs is still escaped")
    }

    @Test func theWrittenPiecesMakeTheLiteral() {
        let text = "run \"one\"\u{1}\ttwo é\u{2028}"
        var pieces: [UInt8] = []
        JSONString.write(text, .contract) { pieces.append(contentsOf: $0) }
        #expect(String(decoding: pieces, as: UTF8.self) == JSONString.literal(text, .contract))
        var appended = Array("x=".utf8)
        JSONString.append(text, .contract, to: &appended)
        #expect(String(decoding: appended, as: UTF8.self) == "x=" + JSONString.literal(text, .contract))
    }

    @Test func aLiteralReadsBackAsItsText() throws {
        let text = String((0..<0x80).compactMap { Unicode.Scalar(UInt32($0)) }.map(Character.init)) + "\u{2028}é😀"
        let data = Data(("[" + JSONString.literal(text, .contract) + "]").utf8)
        #expect(try JSONDecoder().decode([String].self, from: data) == [text])
    }

    @Test func theValueWriterSortsKeysIndentsAndMarks() {
        let value = JSONValue.object([
            "b": .array([.number(1), .number(2.5), .null]), "a": .string("x\u{1}"), "c": .bool(true),
        ])
        #expect(value.jsonText() == #"{"a":"x\u0001","b":[1,2.5,null],"c":true}"#)
        #expect(
            value.jsonText(indent: "  ") == """
                {
                  "a": "x\\u0001",
                  "b": [
                    1,
                    2.5,
                    null
                  ],
                  "c": true
                }
                """
        )
        let marks = JSONValue.TokenMarks(
            key: .init(open: "<k>", close: "</k>"),
            string: .init(open: "<s>", close: "</s>"),
            number: .init(open: "<n>", close: "</n>"),
            boolean: .init(open: "<b>", close: "</b>"),
            null: .init(open: "<0>", close: "</0>")
        )
        #expect(
            JSONValue.array([.string("s"), .number(3), .bool(false), .null, .object(["k": .object([:])])]).jsonText(
                marks: marks
            )
                == #"[<s>"s"</s>,<n>3</n>,<b>false</b>,<0>null</0>,{<k>"k"</k>:{}}]"#
        )
        #expect(JSONValue.format(.nan) == "null")
        #expect(JSONValue.format(1e300) == "1e+300")
    }
}
