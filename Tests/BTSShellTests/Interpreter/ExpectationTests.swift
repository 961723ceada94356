import BTSShell
import BooksTrackContract
import Testing

@Suite("expect semantics (pure)")
struct ExpectationTests {
    @Test func numericComparisonsWhenBothSidesAreNumbers() throws {
        #expect(try Expectation.evaluate(.number(10), .greater, .string("9")).get())
        #expect(try Expectation.evaluate(.string("10"), .greater, .string("9")).get())
        #expect(try Expectation.evaluate(.string("1.0"), .equal, .number(1)).get())
        #expect(try !Expectation.evaluate(.number(3), .lessOrEqual, .number(2)).get())
        #expect(try Expectation.evaluate(.number(2), .greaterOrEqual, .number(2)).get())
    }

    @Test func textEqualityOtherwise() throws {
        #expect(try Expectation.evaluate(.string("Dune"), .equal, .string("Dune")).get())
        #expect(try Expectation.evaluate(.string("Dune"), .notEqual, .string("dune")).get())
        #expect(try Expectation.evaluate(.bool(true), .equal, .string("true")).get())
    }

    @Test func orderingNeedsNumbers() {
        guard case .failure(let invalid) = Expectation.evaluate(.string("abc"), .less, .number(3)) else {
            Issue.record("expected a usage failure")
            return
        }
        #expect(invalid.message.contains("\"abc\" is not a number"))
    }

    @Test func containsOnStringsArraysAndObjects() throws {
        #expect(try Expectation.evaluate(.string("The Hunger Games"), .contains, .string("Hunger")).get())
        #expect(
            try Expectation.evaluate(
                .array([.string("a"), .string("Suzanne Collins")]),
                .contains,
                .string("Suzanne Collins")
            ).get()
        )
        #expect(try !Expectation.evaluate(.array([.string("Suzanne Collins")]), .contains, .string("Suzanne")).get())
        #expect(try Expectation.evaluate(.object(["isbn": .string("1")]), .contains, .string("isbn")).get())
    }

    @Test func matchesUsesRegularExpressions() throws {
        #expect(try Expectation.evaluate(.string("9780439023481"), .matches, .string("^97[89][0-9]{10}$")).get())
        #expect(try !Expectation.evaluate(.string("0439023483"), .matches, .string("^97[89]")).get())
        if case .success = Expectation.evaluate(.string("x"), .matches, .string("(")) {
            Issue.record("an invalid regex must be a usage error")
        }
    }

    @Test func truthinessAndCounts() {
        #expect(Expectation.isTruthy(.string("x")))
        #expect(!Expectation.isTruthy(.string("")))
        #expect(!Expectation.isTruthy(.string("false")))
        #expect(!Expectation.isTruthy(.number(0)))
        #expect(!Expectation.isTruthy(.null))
        #expect(!Expectation.isTruthy(.array([])))
        #expect(Expectation.count(.array([.null, .null])) == 2)
        #expect(Expectation.count(.string("abc")) == 3)
        #expect(Expectation.count(.bool(true)) == nil)
    }
}
