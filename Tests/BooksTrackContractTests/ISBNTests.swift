import BooksTrackSupport
import Foundation
import TestSupport
import Testing

@testable import BooksTrackContract

@Suite(.onWorkThreads) struct ISBNTests {
    @Test(arguments: ["080442957X", "0-8044-2957-X", "080442957x", " 0 8044 2957 X ", "0306406152", "0-306-40615-2"])
    func validISBN10(_ raw: String) throws {
        let isbn = try ISBN(parsing: raw)
        #expect(isbn.kind == .isbn10)
        #expect(isbn.value.count == 10)
        #expect(!isbn.value.contains("-") && !isbn.value.contains(" ") && !isbn.value.contains("x"))
    }

    @Test(arguments: ["9780306406157", "978-0-306-40615-7", "978 0 306 40615 7", "9791090636071", "979-10-90636-07-1"])
    func validISBN13(_ raw: String) throws {
        let isbn = try ISBN(parsing: raw)
        #expect(isbn.kind == .isbn13)
        #expect(isbn.value.count == 13)
    }

    @Test func invalidInputsGiveTheRightError() {
        #expect(throws: ISBN.ParseError.empty) { try ISBN(parsing: "  ") }
        #expect(throws: ISBN.ParseError.empty) { try ISBN(parsing: "---") }
        #expect(throws: ISBN.ParseError.invalidCharacter("a")) { try ISBN(parsing: "03064a6152") }
        #expect(throws: ISBN.ParseError.wrongLength(9)) { try ISBN(parsing: "030640615") }
        #expect(throws: ISBN.ParseError.wrongLength(11)) { try ISBN(parsing: "03064061520") }
        #expect(throws: ISBN.ParseError.badChecksum(expected: "2")) { try ISBN(parsing: "0306406153") }
        #expect(throws: ISBN.ParseError.badChecksum(expected: "X")) { try ISBN(parsing: "0804429570") }
        #expect(throws: ISBN.ParseError.badChecksum(expected: "7")) { try ISBN(parsing: "9780306406158") }
        #expect(throws: ISBN.ParseError.misplacedCheckCharacter) { try ISBN(parsing: "08044X9575") }
        #expect(throws: ISBN.ParseError.misplacedCheckCharacter) { try ISBN(parsing: "978030640615X") }
        #expect(throws: ISBN.ParseError.badPrefix) { try ISBN(parsing: "9770306406157") }
        #expect(ISBN("not an isbn") == nil)
        #expect(ISBN("9780306406157") != nil)
    }

    @Test func errorMessagesAreReadable() {
        #expect(ISBN.ParseError.badChecksum(expected: "7").message.contains("check digit should be 7"))
        #expect(ISBN.ParseError.wrongLength(9).description == "ISBN must have 10 or 13 digits, got 9")
    }

    @Test func converts10To13AndBack() throws {
        let ten = try ISBN(parsing: "0-306-40615-2")
        #expect(ten.isbn13 == "9780306406157")
        #expect(ten.isbn10 == "0306406152")
        let thirteen = try ISBN(parsing: "9780306406157")
        #expect(thirteen.isbn10 == "0306406152")
        #expect(thirteen.isbn13 == "9780306406157")
        // An ISBN-10 ending in X converts to a 13 whose check digit is a digit, and back to X.
        let x = try ISBN(parsing: "080442957X")
        #expect(x.isbn13 == "9780804429573")
        #expect(try ISBN(parsing: x.isbn13).isbn10 == "080442957X")
    }

    @Test func isbn979HasNoISBN10() throws {
        let isbn = try ISBN(parsing: "979-10-90636-07-1")
        #expect(isbn.isbn10 == nil)
        #expect(isbn.isbn13 == "9791090636071")
    }

    @Test func codableUsesTheCanonicalString() throws {
        let isbn = try ISBN(parsing: "978-0-306-40615-7")
        #expect(try encodedString([isbn]) == #"["9780306406157"]"#)
        let decoded = try JSONCoding.decoder().decode([ISBN].self, from: Data(#"["0-306-40615-2"]"#.utf8))
        #expect(decoded.first?.value == "0306406152")
        #expect(throws: DecodingError.self) {
            try JSONCoding.decoder().decode([ISBN].self, from: Data(#"["0306406153"]"#.utf8))
        }
    }

    @Test func looksLikeISBN() {
        #expect(ISBN.looksLikeISBN("978-0-306-40615-8"))  // wrong checksum, still an attempt
        #expect(ISBN.looksLikeISBN("080442957X"))
        #expect(!ISBN.looksLikeISBN("dune"))
        #expect(!ISBN.looksLikeISBN("1984"))
        #expect(!ISBN.looksLikeISBN("12345678901234567890"))
    }

    /// Seeded fuzz: random strings never crash; whatever parses is canonical, re-parses to itself
    /// and converts 10 ↔ 13 consistently; valid numbers with one digit changed are rejected.
    @Test func fuzzNeverCrashesAndRoundTrips() throws {
        var rng = SplitMix64(seed: 0xB00C_5EED)
        let alphabet: [Character] = Array("0123456789Xx- \t.aZ٣９") + ["\u{2010}"]
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...20, using: &rng)
            let raw = String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
            // The byte-level reading of ASCII text agrees with the Character-level one wherever it answers.
            if let fast = ISBN.asciiCharacters(raw) {
                #expect(fast == (try? ISBN.characters(raw)), "\(raw.debugDescription)")
            }
            _ = ISBN.looksLikeISBN(raw)
            guard let isbn = ISBN(raw) else { continue }
            try checkInvariants(isbn)
        }
        // Generated valid numbers: always parse (also hyphenated), and a single changed digit never does.
        for i in 0..<5_000 {
            let thirteen = i % 2 == 0
            var body: [Character] =
                thirteen
                ? Array(Bool.random(using: &rng) ? "978" : "979")
                    + (0..<9).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) }
                : (0..<9).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) }
            let digits = Array(String(body).utf8)
            body.append(Character(Unicode.Scalar(thirteen ? ISBN.check13(digits[...]) : ISBN.check10(digits[...]))))
            let canonical = String(body)
            let isbn = try ISBN(parsing: canonical)
            #expect(isbn.value == canonical)
            try checkInvariants(isbn)
            let hyphenated = canonical.enumerated().map {
                $0.offset > 0 && $0.offset % 3 == 0 ? "-\($0.element)" : String($0.element)
            }.joined()
            #expect(ISBN(hyphenated)?.value == canonical)
            let pos = Int.random(in: (thirteen ? 3 : 0)..<(body.count - 1), using: &rng)
            var mutated = body
            let old = mutated[pos].wholeNumberValue ?? 0
            mutated[pos] = Character(String((old + Int.random(in: 1...9, using: &rng)) % 10))
            #expect(ISBN(String(mutated)) == nil, "single-digit change accepted: \(String(mutated))")
        }
    }

    private func checkInvariants(_ isbn: ISBN) throws {
        #expect(isbn.value.count == (isbn.kind == .isbn10 ? 10 : 13))
        #expect(try ISBN(parsing: isbn.value) == isbn)
        let thirteen = try ISBN(parsing: isbn.isbn13)
        #expect(thirteen.kind == .isbn13)
        if isbn.kind == .isbn10 {
            #expect(thirteen.isbn10 == isbn.value)
        } else if let ten = isbn.isbn10 {
            #expect(try ISBN(parsing: ten).isbn13 == isbn.value)
        } else {
            #expect(isbn.value.hasPrefix("979"))
        }
    }
}
