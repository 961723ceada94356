import BooksTrackSupport
import Foundation
import TestSupport
import Testing

@testable import BooksTrackContract

/// `JSONTreeDecoding` gives `JSONDecoder`'s result or none: over every fixture (real production
/// bodies and the stand-in's) decoded as every wire type, bare and in the success envelope, and
/// over thousands of seeded mutations of them (values of another kind, awkward numbers and
/// strings, deleted and duplicated keys, bytes edited at random).
@Suite("JSON tree decoder", .onWorkThreads)
struct JSONTreeDecoderTests {
    /// Every fixture body, by file name.
    static func fixtures() throws -> [(String, Data)] {
        let root = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var bodies: [(String, Data)] = []
        for case let url as URL in files where url.pathExtension == "json" {
            bodies.append((url.lastPathComponent, try Data(contentsOf: url)))
        }
        return bodies.sorted { $0.0 < $1.0 }
    }

    /// One comparison: the tree decoder's value, when it gives one, is `JSONDecoder`'s.
    struct Outcome {
        var fast = 0
        var reference = 0
    }

    static func compare<T: Decodable & Equatable>(
        _ type: T.Type,
        _ data: Data,
        _ label: String,
        into outcome: inout Outcome
    ) {
        let reference = try? JSONCoding.decoder().decode(T.self, from: data)
        let fast = JSONTreeDecoding.decode(T.self, from: data)
        if reference != nil { outcome.reference += 1 }
        if let fast {
            outcome.fast += 1
            #expect(
                fast == reference,
                "\(T.self) differs for \(label): \(String(decoding: data.prefix(300), as: UTF8.self))"
            )
        }
        // The envelope the client reads first.
        let referenceEnvelope = try? JSONCoding.decoder().decode(SuccessEnvelope<T>.self, from: data)
        if let envelope = JSONTreeDecoding.decode(SuccessEnvelope<T>.self, from: data) {
            #expect(
                envelope.data == referenceEnvelope?.data && envelope.metadata == referenceEnvelope?.metadata,
                "envelope of \(T.self) differs for \(label): \(String(decoding: data.prefix(300), as: UTF8.self))"
            )
        }
    }

    /// Every wire type the client decodes.
    static func compareAll(_ data: Data, _ label: String, into outcome: inout Outcome) {
        compare(SearchResults.self, data, label, into: &outcome)
        compare(BookSearchResponse.self, data, label, into: &outcome)
        compare(V2SearchResponse.self, data, label, into: &outcome)
        compare(SimilarResults.self, data, label, into: &outcome)
        compare(SimilarBooksResponse.self, data, label, into: &outcome)
        compare(Capabilities.self, data, label, into: &outcome)
        compare(CapabilitiesResponse.self, data, label, into: &outcome)
        compare(EnrichedBook.self, data, label, into: &outcome)
        compare(ImportAccepted.self, data, label, into: &outcome)
        compare(ImportResults.self, data, label, into: &outcome)
        compare(JobStatus.self, data, label, into: &outcome)
        compare(BatchJobAccepted.self, data, label, into: &outcome)
        compare(CancelResponse.self, data, label, into: &outcome)
        compare(WeeklyRecommendations.self, data, label, into: &outcome)
        compare(ResponseMetadata.self, data, label, into: &outcome)
        compare(WSMessage.self, data, label, into: &outcome)
        compare(JobEventPayload.self, data, label, into: &outcome)
        compare(JSONValue.self, data, label, into: &outcome)
    }

    @Test func fixturesDecodeAsJSONDecoderDoes() throws {
        var outcome = Outcome()
        for (name, data) in try Self.fixtures() {
            Self.compareAll(data, name, into: &outcome)
            // The fast path is taken: every envelope that JSONDecoder reads as search results,
            // the tree decoder reads too.
            if (try? JSONCoding.decoder().decode(SuccessEnvelope<SearchResults>.self, from: data)) != nil {
                #expect(
                    JSONTreeDecoding.decode(SuccessEnvelope<SearchResults>.self, from: data) != nil,
                    "gave up on \(name)"
                )
            }
        }
        #expect(outcome.fast > 0)
        #expect(
            outcome.fast == outcome.reference,
            "gave up on \(outcome.reference - outcome.fast) of \(outcome.reference)"
        )
    }

    /// A JSON document as text pieces, so that mutations can write what `JSONValue` cannot hold:
    /// duplicate keys, `1.0`, `1e2`, `-0`, escapes, lone surrogates.
    indirect enum Doc {
        case text(String)
        case array([Doc])
        case object([(String, Doc)])

        init(_ value: JSONValue) {
            switch value {
            case .null: self = .text("null")
            case .bool(let b): self = .text(b ? "true" : "false")
            case .number(let d): self = .text(d.rounded() == d && abs(d) < 1e15 ? String(Int64(d)) : String(d))
            case .string(let s): self = .text(Doc.quoted(s))
            case .array(let a): self = .array(a.map(Doc.init))
            case .object(let o): self = .object(o.sorted { $0.key < $1.key }.map { ($0.key, Doc($0.value)) })
            }
        }

        static func quoted(_ s: String) -> String {
            var out = "\""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }

        var rendered: String {
            switch self {
            case .text(let t): return t
            case .array(let a): return "[" + a.map(\.rendered).joined(separator: ",") + "]"
            case .object(let o):
                return "{" + o.map { Doc.quoted($0.0) + ":" + $0.1.rendered }.joined(separator: ",") + "}"
            }
        }

        /// Number of nodes (to pick one at random).
        var size: Int {
            switch self {
            case .text: return 1
            case .array(let a): return 1 + a.reduce(0) { $0 + $1.size }
            case .object(let o): return 1 + o.reduce(0) { $0 + $1.1.size }
            }
        }

        /// Applies `change` to the node numbered `target` (pre-order).
        func mutating(_ target: Int, _ change: (Doc) -> Doc) -> Doc {
            var counter = target
            return walk(&counter, change)
        }

        private func walk(_ counter: inout Int, _ change: (Doc) -> Doc) -> Doc {
            if counter == 0 {
                counter = -1
                return change(self)
            }
            counter -= 1
            switch self {
            case .text: return self
            case .array(let a):
                var out: [Doc] = []
                for element in a { out.append(counter < 0 ? element : element.walk(&counter, change)) }
                return .array(out)
            case .object(let o):
                var out: [(String, Doc)] = []
                for (key, value) in o { out.append((key, counter < 0 ? value : value.walk(&counter, change))) }
                return .object(out)
            }
        }
    }

    /// Replacement values of every kind, with the awkward forms.
    static let replacements = [
        "null", "true", "false", "0", "-0", "1", "-7", "42", "1.0", "1.5", "-2.25", "1e2", "1E-2", "2.5e+3", "1e400",
        "1e-400",
        "9007199254740993", "123456789012345678", "1234567890123456789", "12345678901234567890", "0.1",
        "3.14159265358979323846",
        "\"\"", "\"42\"", "\"4.5\"", "\"true\"", "\"x\"", "\"caf\\u00e9\"", "\"\\ud83d\\ude00\"", "\"\\ud800\"",
        "\"\\udc00x\"",
        "\"a\\\\b\\/c\\n\\t\"", "\"\\u0000\"", "\"2026-11-24T05:00:00Z\"", "\"9780439023481\"", "[]", "[1,2]",
        "[\"a\",null]",
        "[{}]", "{}", "{\"title\":\"T\"}", "{\"works\":[]}", "{\"a\":1,\"a\":2}", "[[[[]]]]",
    ]

    static func mutate(_ doc: Doc, _ rng: inout SplitMix64) -> Doc {
        let target = Int.random(in: 0..<doc.size, using: &rng)
        return doc.mutating(target) { node in
            switch Int.random(in: 0..<6, using: &rng) {
            case 0, 1, 2:
                return .text(replacements.randomElement(using: &rng) ?? "null")
            case 3:
                // Delete a member or element.
                switch node {
                case .object(let o) where !o.isEmpty:
                    return .object(o.enumerated().filter { $0.offset != o.count / 2 }.map(\.element))
                case .array(let a) where !a.isEmpty: return .array(Array(a.dropFirst()))
                default: return .text("null")
                }
            case 4:
                // Duplicate a member (JSONDecoder keeps the first).
                if case .object(let o) = node, let first = o.first {
                    return .object(o + [(first.0, .text(replacements.randomElement(using: &rng) ?? "1"))])
                }
                return .array([node, node])
            default:
                // Rename a member's key.
                if case .object(let o) = node, let last = o.last {
                    return .object(o.dropLast() + [(last.0 + "_", last.1)])
                }
                return node
            }
        }
    }

    @Test func mutatedFixturesDecodeAsJSONDecoderDoesOrNotAtAll() throws {
        var rng = SplitMix64(seed: 0x16_2026_1124)
        var outcome = Outcome()
        for (name, data) in try Self.fixtures() {
            guard let value = try? JSONDecoder().decode(JSONValue.self, from: data) else { continue }
            let doc = Doc(value)
            for round in 0..<12 {
                var mutated = Self.mutate(doc, &rng)
                if round % 3 == 0 { mutated = Self.mutate(mutated, &rng) }
                Self.compareAll(Data(mutated.rendered.utf8), "\(name) mutation \(round)", into: &outcome)
            }
        }
        // Most mutations still decode as something; the tree decoder must take most of them.
        #expect(outcome.fast * 2 > outcome.reference, "fast \(outcome.fast) of \(outcome.reference)")
    }

    @Test func editedBytesParseAsJSONDecoderDoesOrNotAtAll() throws {
        var rng = SplitMix64(seed: 0x2026_1124_16)
        let alphabet =
            Array("{}[],:\"\\ u0123456789eE.-+tfnlrsa\u{7F}\t\n".utf8) + [
                0x00, 0x1F, 0xC3, 0xA9, 0xFF, 0xEF, 0xBB, 0xBF,
            ]
        var outcome = Outcome()
        for (name, data) in try Self.fixtures() {
            for round in 0..<20 {
                var bytes = [UInt8](data)
                for _ in 0..<Int.random(in: 1...3, using: &rng) where !bytes.isEmpty {
                    let at = Int.random(in: 0..<bytes.count, using: &rng)
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: bytes[at] = alphabet.randomElement(using: &rng) ?? 0
                    case 1: bytes.insert(alphabet.randomElement(using: &rng) ?? 0, at: at)
                    default: bytes.remove(at: at)
                    }
                }
                let edited = Data(bytes)
                Self.compare(JSONValue.self, edited, "\(name) edit \(round)", into: &outcome)
                Self.compare(SearchResults.self, edited, "\(name) edit \(round)", into: &outcome)
                Self.compare(JobStatus.self, edited, "\(name) edit \(round)", into: &outcome)
            }
        }
        #expect(outcome.fast > 0)
    }

    @Test func numbersAndStringsAsJSONDecoderReadsThem() throws {
        struct Box<T: Decodable & Equatable>: Decodable, Equatable { var v: T }
        var outcome = Outcome()
        for text in Self.replacements + [
            "-1", "10", "100.25", "-0.0", "0.30000000000000004", "1.7976931348623157e308",
            "4.9e-324", "-9223372036854775808", "9223372036854775807", "1.000000000000000000001",
        ] {
            let data = Data("{\"v\":\(text)}".utf8)
            Self.compare(Box<Int>.self, data, text, into: &outcome)
            Self.compare(Box<Double>.self, data, text, into: &outcome)
            Self.compare(Box<String>.self, data, text, into: &outcome)
            Self.compare(Box<Bool>.self, data, text, into: &outcome)
            Self.compare(Box<Int?>.self, data, text, into: &outcome)
            Self.compare(Box<[String]>.self, data, text, into: &outcome)
            Self.compare(Box<JSONValue>.self, data, text, into: &outcome)
        }
        // -0 reads as negative zero, as JSONDecoder reads it.
        let negativeZero = JSONTreeDecoding.decode(Box<Double>.self, from: Data("{\"v\":-0}".utf8))
        #expect(negativeZero.map { $0.v.sign == .minus } ?? true)
        #expect(
            JSONTreeDecoding.decode(Box<String>.self, from: Data("{\"v\":\"caf\\u00e9 \\ud83d\\ude00\"}".utf8))?.v
                == "café 😀"
        )
        #expect(JSONTreeDecoding.decode(Box<Int>.self, from: Data("{\"v\":1,\"v\":2}".utf8)) == nil)
        #expect(JSONTreeDecoding.decode(Box<[Int]>.self, from: Data("{\"v\":[1,2,]}".utf8)) == nil)
        #expect(JSONTreeDecoding.decode(Box<Int>.self, from: Data("\u{FEFF}{\"v\":1}".utf8)) == nil)
        #expect(outcome.fast > 0)
    }

    /// A type decoded by its fields (`FieldsDecodable`) reads them from the tree decoder's own
    /// container, and from `KeyedDecodingContainer` under any other decoder.
    @Test func fieldsDecodableReadsTheTreeDecodersOwnContainer() throws {
        struct Probe: FieldsDecodable, Equatable {
            enum CodingKeys: String, CodingKey { case title }
            var title: String
            var container: String
            init(from decoder: any Decoder) throws { try self.init(decodingFieldsFrom: decoder) }
            init<Fields: KeyedFields<CodingKeys>>(fields: Fields) throws {
                title = try fields.decode(String.self, forKey: .title)
                container = String(describing: Fields.self)
            }
        }
        let data = Data(#"{"title":"Dune"}"#.utf8)
        let fast = try #require(JSONTreeDecoding.decode(Probe.self, from: data))
        let reference = try JSONCoding.decoder().decode(Probe.self, from: data)
        #expect(fast.title == "Dune" && reference.title == "Dune")
        #expect(fast.container.hasPrefix("KeyedContainer<"), "\(fast.container)")
        #expect(reference.container.hasPrefix("KeyedDecodingContainer<"), "\(reference.container)")
    }

    /// The tree's own reading of a list that may be absent or null, against `JSONDecoder`'s.
    @Test func absentNullAndListedArraysAsJSONDecoderReadsThem() throws {
        var outcome = Outcome()
        let works = #"[{"title":"Dune"},{"title":"Emma","goodreadsWorkIDs":[1,"2"]}]"#
        for (label, body) in [
            ("absent", #"{"editions":[{"isbns":["9780441172719"]}]}"#),
            ("null", #"{"works":null,"editions":null,"authors":null}"#),
            ("listed", #"{"works":\#(works),"authors":[{"name":"Frank Herbert"}],"resultCount":2}"#),
            ("empty", #"{"works":[],"editions":[],"authors":[]}"#),
            ("an element of another kind", #"{"works":[{"title":"Dune"},7]}"#),
            ("an object for a list", #"{"works":{"title":"Dune"}}"#),
            ("a string for a list", #"{"authors":"Frank Herbert"}"#),
        ] {
            Self.compare(BookSearchResponse.self, Data(body.utf8), label, into: &outcome)
        }
        #expect(
            outcome.fast == outcome.reference,
            "gave up on \(outcome.reference - outcome.fast) of \(outcome.reference)"
        )
        #expect(outcome.reference == 4)
    }

    /// Strings are scanned eight bytes at a time: every length around a word, with an escape, a
    /// control byte, a non-ASCII character or the closing quote at every position, read as
    /// `JSONDecoder` reads them (or not at all).
    @Test func stringsScannedByWordsAsJSONDecoderReadsThem() throws {
        struct Box: Decodable, Equatable { var v: String }
        var outcome = Outcome()
        for length in 0...26 {
            for position in 0...length {
                for special in [#"\""#, #"\\"#, #"\n"#, #"\u00e9"#, "\u{01}", "\u{7F}", "é", "😀", "\u{1F}", "\u{20}"] {
                    var text = String(repeating: "a", count: length)
                    text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: position))
                    Self.compare(
                        Box.self,
                        Data("{\"v\":\"\(text)\"}".utf8),
                        "\(length)/\(position)/\(special)",
                        into: &outcome
                    )
                }
                // Invalid UTF-8 (a lone continuation byte, a truncated sequence): JSONDecoder refuses it.
                for invalid: [UInt8] in [[0xFF], [0x80], [0xC3]] {
                    var bytes =
                        Array("{\"v\":\"".utf8) + Array(repeating: UInt8(ascii: "a"), count: length) + Array("\"}".utf8)
                    bytes.insert(contentsOf: invalid, at: 6 + position)
                    Self.compare(Box.self, Data(bytes), "\(length)/\(position)/\(invalid)", into: &outcome)
                }
                // Cut short: no closing quote.
                Self.compare(
                    Box.self,
                    Data("{\"v\":\"\(String(repeating: "a", count: length))".utf8),
                    "open \(length)",
                    into: &outcome
                )
            }
        }
        #expect(
            outcome.fast == outcome.reference,
            "gave up on \(outcome.reference - outcome.fast) of \(outcome.reference)"
        )
        #expect(outcome.reference > 3_000)
    }
}
