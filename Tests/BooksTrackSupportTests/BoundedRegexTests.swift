import BooksTrackSupport
import Testing

/// The bounded regular expressions of `expect … matches`: what they match, what they refuse, and
/// their bounds (the compiled program's size, the nesting of groups, the step budget, cancellation).
@Suite struct BoundedRegexTests {
    func matches(_ pattern: String, _ subject: String) throws -> Bool {
        try BoundedRegex(pattern).firstMatchExists(in: subject, isCancelled: { false })
    }

    @Test func semantics() throws {
        #expect(try matches("^97[89]", "9780441172719"))
        #expect(try !matches("^97[89]", "1234"))
        #expect(try matches("(?i)harry potter", "HARRY POTTER and the"))
        #expect(try matches("(?i)hobbit|lord of the rings", "The Lord of the Rings"))
        #expect(try matches(#"^http://127\.0\.0\.1:"#, "http://127.0.0.1:8787"))
        #expect(try !matches(#"^http://127\.0\.0\.1:"#, "http://127x0.0.1:8787"))
        #expect(try matches(#"\bdune\b"#, "the dune saga"))
        #expect(try !matches(#"\bdune\b"#, "dunes"))
        #expect(try matches(#"^\d{3}-\d{2,}$"#, "123-4567"))
        #expect(try !matches(#"^\d{3}-\d{2,}$"#, "123-4"))
        #expect(try matches("colou?r", "color"))
        #expect(try matches("[^a-c]x", "dx"))
        #expect(try matches("a.c", "abc"))
        #expect(try !matches("a.c", "a\nc"))
        #expect(try matches("", "anything"))
        #expect(try matches("(a*)*b", String(repeating: "a", count: 30) + "b"))
        #expect(throws: BoundedRegex.Failure.self) { try BoundedRegex(#"(a)\1"#) }
        #expect(throws: BoundedRegex.Failure.self) { try BoundedRegex("(?=a)") }
        #expect(throws: BoundedRegex.Failure.self) { try BoundedRegex("a{1000}{1000}") }
        #expect(throws: BoundedRegex.Failure.self) { try BoundedRegex("(abc") }
        // Found by Fuzz/regex: nested '+' over a body that emits nothing compiled in 2^n time
        // (60 of them: over 10 s; 80: the fuzzer's 20 s timeout).
        #expect(throws: BoundedRegex.Failure.self) { try BoundedRegex("{(?i)" + String(repeating: "+", count: 80)) }
        #expect(throws: BoundedRegex.Failure.self) { try BoundedRegex("()" + String(repeating: "{2}", count: 40)) }
        #expect(try matches("(?i)" + String(repeating: "+", count: 6) + "dune", "DUNE"))
        // A cancelled task stops the match.
        #expect(throws: BoundedRegex.Failure.self) {
            try BoundedRegex("(a|b)*c").firstMatchExists(
                in: String(repeating: "ab", count: 10_000),
                isCancelled: { true }
            )
        }
        // The work budget stops a match that would take too long.
        #expect(throws: BoundedRegex.Failure.self) {
            try BoundedRegex("(a|b)*c").firstMatchExists(in: String(repeating: "ab", count: 10_000), stepBudget: 1000)
        }
    }

    @Test func aPatternLongerThanTheProgramBoundIsRefused() throws {
        // One step per literal and one for `^`: exactly the bound (anchored, so the match is linear).
        let letters = String(repeating: "a", count: BoundedRegex.maxProgramSize - 1)
        #expect(try matches("^" + letters, letters), "a pattern at the bound compiles and matches")
        let failure = #expect(throws: BoundedRegex.Failure.self) {
            try BoundedRegex(String(repeating: "a", count: BoundedRegex.maxProgramSize + 1))
        }
        #expect(
            failure?.message == "the pattern is too large (over \(BoundedRegex.maxProgramSize) steps once expanded)"
        )
        // Counted repetition is expanded before the bound is checked.
        #expect(throws: BoundedRegex.Failure.self) { try BoundedRegex("a{\(BoundedRegex.maxProgramSize + 1)}") }
    }

    @Test func groupsNestedDeeperThan200AreRefused() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "(", count: depth) + "a" + String(repeating: ")", count: depth)
        }
        #expect(try matches(nested(200), "a"))
        let failure = #expect(throws: BoundedRegex.Failure.self) { try BoundedRegex(nested(201)) }
        #expect(failure?.message == "groups are nested too deeply")
        #expect(throws: BoundedRegex.Failure.self) { try BoundedRegex(String(repeating: "(?:", count: 10_000)) }
    }

    @Test func theStepBudgetAbandonsAMatch() throws {
        let regex = try BoundedRegex("(a|b)*c")
        let subject = String(repeating: "ab", count: 1000)
        #expect(try !regex.firstMatchExists(in: subject, isCancelled: { false }), "within the default budget: no match")
        let failure = #expect(throws: BoundedRegex.Failure.self) {
            try regex.firstMatchExists(in: subject, stepBudget: 100, isCancelled: { false })
        }
        #expect(failure?.message == "the pattern needs too much work on this value")
        #expect(
            try regex.firstMatchExists(in: "abc", stepBudget: 100, isCancelled: { false }),
            "a small match fits a small budget"
        )
    }

    @Test func aCancelledMatchStops() throws {
        let failure = #expect(throws: BoundedRegex.Failure.self) {
            try BoundedRegex("a").firstMatchExists(in: "b", isCancelled: { true })
        }
        #expect(failure?.message == "the match was interrupted")
    }
}
