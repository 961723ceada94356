import BTSLanguage
import BooksTrackContract
import BooksTrackSupport
import Testing

@testable import BTSShell

/// The condition grammar (`and`, `or`, `not`, parentheses over the atoms `expect` reads) and its
/// evaluation, without a shell: words come from the lexer, values from a dictionary.
@Suite("conditions (pure)")
struct ConditionTests {
    static func words(_ text: String) -> (SourceFile, [Word]) {
        let source = SourceFile(name: "t.bts", text: text)
        return (source, Lexer.tokenize(source).tokens.compactMap(\.word))
    }

    static func parse(_ text: String) -> Result<Condition, Condition.Problem> {
        Condition.parse(words(text).1, what: "expect")
    }

    /// The tree as text: atoms as written, `not(…)`, `all(…)`, `any(…)`.
    static func shape(_ condition: Condition) -> String {
        switch condition {
        case .atom(let atom): return atom.text
        case .not(let inner): return "not(\(shape(inner)))"
        case .all(let parts): return "all(" + parts.map(shape).joined(separator: ", ") + ")"
        case .any(let parts): return "any(" + parts.map(shape).joined(separator: ", ") + ")"
        }
    }

    static func shape(_ text: String) -> String {
        switch parse(text) {
        case .success(let condition): return shape(condition)
        case .failure(let problem): return "error: " + problem.message(in: nil)
        }
    }

    /// The problem `text` has, with its message and range quoted from the source, and its fix.
    static func problem(_ text: String) -> (message: String, at: String?, fix: String?) {
        let (source, words) = words(text)
        guard case .failure(let problem) = Condition.parse(words, what: "expect") else {
            return ("no problem", nil, nil)
        }
        let fix = problem.fixIt(in: source).map { source.slice($0.range) + " → " + $0.replacement }
        return (problem.message(in: source), problem.range.map(source.slice), fix)
    }

    @Test func notBindsTightestThenAndThenOr() {
        #expect(Self.shape("a or b and c") == "any(a, all(b, c))")
        #expect(Self.shape("a and b or c") == "any(all(a, b), c)")
        #expect(Self.shape("not a and b") == "all(not(a), b)")
        #expect(Self.shape("not not a or b") == "any(not(not(a)), b)")
        #expect(Self.shape("a and b and c or d or e") == "any(all(a, b, c), d, e)")
    }

    @Test func parenthesesGroup() {
        #expect(Self.shape("( a or b ) and c") == "all(any(a, b), c)")
        #expect(Self.shape("not ( a or b )") == "not(any(a, b))")
        #expect(Self.shape("( ( a ) )") == "a")
        #expect(Self.shape("a and ( b or ( c and not d ) )") == "all(a, any(b, all(c, not(d))))")
    }

    @Test func theFormsOfExpectAreAtoms() throws {
        let condition = try Self.parse(
            "$n == 6 and exists ${_.x} or count ${_.results} >= 3 and ${_.t} contains 'a b' and $ok"
        ).get()
        #expect(
            Self.shape(condition)
                == "any(all($n == 6, exists ${_.x}), all(count ${_.results} >= 3, ${_.t} contains a b, $ok))"
        )
        let forms = condition.atoms.map(\.form)
        guard case .comparison(_, .equal, _) = forms[0], case .exists = forms[1],
            case .count(_, .greaterOrEqual, _) = forms[2],
            case .comparison(_, .contains, _) = forms[3], case .value = forms[4]
        else {
            Issue.record("\(forms)")
            return
        }
        // The old forms read as they did: `not` in front negates the whole atom.
        #expect(Self.shape("not $x == 1") == "not($x == 1)")
        #expect(Self.shape("not exists ${_.x}") == "not(exists ${_.x})")
    }

    @Test func quotedWordsAreValues() {
        #expect(Self.shape("'and'") == "and")
        #expect(Self.shape("$x == 'or' and \"(\" != ')'") == "all($x == or, ( != ))")
        #expect(Self.shape("\"a==b\"") == "a==b")
        #expect(Self.shape("$x matches '^a<b'") == "$x matches ^a<b")
        // The right side of `matches` is the B of an atom, not a word standing for a whole one.
        #expect(Self.shape("$x matches ^a<b") == "$x matches ^a<b")
        #expect(Self.shape("$x == a>b") == "$x == a>b")
    }

    @Test(arguments: [
        ("( $a == 1", "'(' is not closed; expected ')'", "("),
        ("( $a == 1 and ( $b )", "'(' is not closed; expected ')'", "("),
        ("$a and", "'and' needs a condition after it", "and"),
        ("$a or not", "'not' needs a condition after it", "not"),
        ("and $a", "'and' needs a condition before it", "and"),
        ("$a and or $b", "'or' needs a condition before it", "or"),
        ("( )", "'(' needs a condition after it", "("),
        ("$a )", "')' without a matching '('", ")"),
        ("( $a ) )", "')' without a matching '('", ")"),
        ("$a == 1 and $b ==", "cannot read this 'expect' condition", "$b =="),
        ("$a and exists", "'expect exists' takes one value", "exists"),
        ("$a and ==", "'==' compares two values: write A == B", "=="),
    ])
    func malformedConditionsSayWhere(_ text: String, message: String, at: String) {
        let found = Self.problem(text)
        #expect(found.message.hasPrefix(message), "\(text): \(found)")
        #expect(found.at == at, "\(text): \(found)")
    }

    @Test func aProblemOfTheOnlyAtomIsTheWholeCondition() {
        // (Its place is the whole command's, as it always was.)
        #expect(Self.problem("$x lt 3").at == nil)
        #expect(Self.problem("$x contians 3").message.hasSuffix("(did you mean 'contains'?)"))
        #expect(Self.problem("not count $x 3").at == nil)
        #expect(Self.problem("$x adn $y").message.hasSuffix("(did you mean 'and'?)"))
    }

    @Test func nestingIsBounded() {
        let deep = Self.problem(String(repeating: "( ", count: 10_000) + "a" + String(repeating: " )", count: 10_000))
        #expect(deep.message == "the condition nests more than \(Condition.maxDepth) deep")
        #expect(Self.problem(String(repeating: "not ", count: 10_000) + "a").message.hasPrefix("the condition nests"))
        let nested =
            String(repeating: "( ", count: Condition.maxDepth) + "a"
            + String(repeating: " )", count: Condition.maxDepth)
        #expect(Self.shape(nested) == "a")
        let long = Array(repeating: "$a", count: 5_000).joined(separator: " and ")
        #expect(Self.parse(long).map(\.atoms.count) == .success(5_000))
    }

    @Test(arguments: [
        ("$n==6", "'$n==6' is one word, so it is always true; write '$n == 6'", "$n==6 → $n == 6"),
        ("1==2", "'1==2' is one word, so it is always true; write '1 == 2'", "1==2 → 1 == 2"),
        (
            "${_.totalCount}>0", "'${_.totalCount}>0' is one word, so it is always true; write '${_.totalCount} > 0'",
            "${_.totalCount}>0 → ${_.totalCount} > 0"
        ),
        ("$a!=$b", "'$a!=$b' is one word, so it is always true; write '$a != $b'", "$a!=$b → $a != $b"),
        ("${n}<=10", "'${n}<=10' is one word, so it is always true; write '${n} <= 10'", "${n}<=10 → ${n} <= 10"),
        (
            "$x>=\"a b\"", "'$x>=\"a b\"' is one word, so it is always true; write '$x >= \"a b\"'",
            "$x>=\"a b\" → $x >= \"a b\""
        ),
        ("$a == 1 and $b<2", "'$b<2' is one word, so it is always true; write '$b < 2'", "$b<2 → $b < 2"),
        ("not $n==6", "'$n==6' is one word, so it is always true; write '$n == 6'", "$n==6 → $n == 6"),
        ("$n==", "'$n==' is one word, so it is always true; write '==' between two values, with blanks around it", nil),
        ("(a == b)", "'(' is a word of its own: write '( a'", "(a → ( a"),
        ("( a == b)", "')' is a word of its own: write 'b )'", "b) → b )"),
    ])
    func aWordHoldingAnOperatorIsAnErrorWithTheFix(_ text: String, message: String, fix: String?) {
        let found = Self.problem(text)
        #expect(found.message == message, "\(text)")
        #expect(found.fix == fix, "\(text)")
    }

    @Test func withoutTheSourceTheMessageIsSpelledFromTheWords() {
        guard case .failure(let problem) = Self.parse("${_.totalCount}>0") else {
            Issue.record("expected a problem")
            return
        }
        #expect(
            problem.message(in: nil)
                == "'${_.totalCount}>0' is one word, so it is always true; write '${_.totalCount} > 0'"
        )
        #expect(problem.fixIt(in: nil) == nil)
    }

    @Test func valuesThatOnlyLookLikeThemAreLeftAlone() {
        // Quoted or escaped, a word is meant as it is; a value in parentheses is one value.
        for text in ["'$n==6'", "\"1==2\"", "1\\=\\=2", "(unknown)", "$title == (unknown)", "a-b", "!x"] {
            #expect(!Self.shape(text).hasPrefix("error"), "\(text): \(Self.shape(text))")
        }
    }

    // MARK: Evaluation

    /// Evaluates `text` with `values` (by the word as written): whether it held (nil: a usage error
    /// or no condition), the words read in order, and the details of a failure.
    static func evaluate(
        _ text: String,
        _ values: [String: JSONValue]
    ) -> (passed: Bool?, read: [String], details: [String]) {
        let (_, words) = words(text)
        guard case .success(let condition) = Condition.parse(words, what: "expect") else { return (nil, [], []) }
        var read: [String] = []
        var outcomes: [Condition.Outcome] = []
        let passed = try? condition.evaluate(
            { word in
                read.append(word.sourceForm)
                if let literal = word.literalText { return .success(.string(literal)) }
                if let value = values[word.sourceForm] { return .success(value) }
                return .failure(ShellError(.failure, "no \(word.sourceForm)"))
            },
            whole: SourceRange(offset: 0, length: 0),
            &outcomes
        )
        return (passed, read, Condition.details(outcomes))
    }

    @Test func andOrNotEvaluateAsWritten() {
        let values: [String: JSONValue] = ["$yes": .bool(true), "$no": .bool(false), "$n": .number(5)]
        let cases: [(String, Bool)] = [
            ("$yes and $no", false), ("$yes or $no", true), ("not $no", true), ("not $yes or $no", false),
            ("$no or $yes and $no", false), ("( $no or $yes ) and $yes", true), ("not ( $no or $no )", true),
            ("$n == 5 and not $n > 6", true), ("$n < 3 or $n >= 5", true), ("$missing or $yes", true),
            ("not $missing", true), ("$yes and $missing", false),
        ]
        for (text, expected) in cases {
            #expect(Self.evaluate(text, values).passed == expected, "\(text)")
        }
    }

    @Test func evaluationStopsWhenTheAnswerIsKnown() {
        let values: [String: JSONValue] = ["$yes": .bool(true), "$no": .bool(false)]
        #expect(Self.evaluate("$no and $b", values).read == ["$no"])
        #expect(Self.evaluate("$yes or $b", values).read == ["$yes"])
        #expect(Self.evaluate("$yes and $no and $b", values).read == ["$yes", "$no"])
        #expect(Self.evaluate("( $no and $b ) or $yes", values).read == ["$no", "$yes"])
        // A usage error past the answer is never reached: `$no` decides before the bad ordering.
        #expect(Self.evaluate("$no and abc < 3", values).passed == false)
        #expect(Self.evaluate("$yes and abc < 3", values).passed == nil)
    }

    @Test func detailsShowTheAtomsEvaluated() {
        let values: [String: JSONValue] = ["$n": .number(5), "$t": .string("Dune")]
        // One atom: its sides as always.
        #expect(Self.evaluate("$n == 6", values).details == ["left:  5", "right: 6"])
        #expect(Self.evaluate("not $n == 5", values).details == ["left:  5", "right: 5"])
        // Several: each atom evaluated, what it came to, and its sides.
        #expect(
            Self.evaluate("$n == 6 or $t contains x and $n > 1", values).details == [
                "$n == 6: false", "  left:  5", "  right: 6",
                "$t contains x: false", "  left:  \"Dune\"", "  right: \"x\"",
            ]
        )
        #expect(
            Self.evaluate("exists $gone or count $t > 10", values).details == [
                "exists $gone: false", "  value: (missing: no $gone)",
                "count $t > 10: false", "  count: 4", "  right: 10",
            ]
        )
    }

    // MARK: Completion

    @Test func theNextWordsFollowTheGrammar() {
        func next(_ text: String) -> [String] { Condition.nextWords(after: Self.words(text).1) }
        let starts = ["not", "exists", "count", "("]
        let operators = Expectation.Operator.allCases.map(\.rawValue)
        #expect(next("") == starts)
        #expect(next("$a and") == starts)
        #expect(next("not") == starts)
        #expect(next("( not (") == starts)
        #expect(next("$a") == operators + ["and", "or"])
        #expect(next("( $a") == operators + ["and", "or", ")"])
        #expect(next("$a ==") == [])
        #expect(next("$a == 1") == ["and", "or"])
        #expect(next("( $a == 1 )") == ["and", "or"])
        #expect(next("count") == [])
        #expect(next("count $x") == ["==", "!=", "<", "<=", ">", ">="])
        #expect(next("exists $x") == ["and", "or"])
    }

    // MARK: Random conditions

    /// Random words of the grammar: each text parses to a condition that evaluates, or to a
    /// problem inside the text whose fix (if any) makes more words of the one it names.
    @Test func randomConditionsParseOrSayWhere() throws {
        let alphabet = [
            "and", "or", "not", "(", ")", "$a", "'and'", "==", "<", "contains", "exists", "count", "1",
            "$n==6", "(x", "y)", "\"(\"", ">=", "matches", "${_.x}>0", "a<b", "'a<b'", "x\\>y",
        ]
        var generator = SplitMix64(seed: 11)
        for _ in 0..<3_000 {
            let count = Int.random(in: 0...12, using: &generator)
            let text = (0..<count).map { _ in alphabet.randomElement(using: &generator) ?? "" }.joined(separator: " ")
            let (source, words) = Self.words(text)
            let all = SourceRange(offset: 0, length: source.bytes.count)
            switch Condition.parse(words, what: "if") {
            case .success(let condition):
                var outcomes: [Condition.Outcome] = []
                let answer = Result { () throws(ShellError) -> Bool in
                    try condition.evaluate({ _ in .success(.number(1)) }, whole: all, &outcomes)
                }
                switch answer {
                case .success: #expect(!outcomes.isEmpty, "\(text)")
                case .failure(let error):
                    // Only what values decide: an ordering of text, a count of a number, a bad regular expression.
                    #expect(!error.message.contains("condition"), "\(text): \(error.message)")
                }
                #expect(outcomes.allSatisfy { condition.atoms.contains($0.atom) }, "\(text)")
            case .failure(let problem):
                #expect(!words.isEmpty || problem.range == nil)
                if let range = problem.range { #expect(all.contains(range), "\(text)") }
                let message = problem.message(in: source)
                #expect(!message.isEmpty)
                if let fix = problem.fixIt(in: source) {
                    let bytes = source.bytes
                    let fixed =
                        String(decoding: bytes[..<fix.range.offset], as: UTF8.self) + fix.replacement
                        + String(decoding: bytes[fix.range.end...], as: UTF8.self)
                    if message.contains("did you mean '\(fix.replacement)'") {
                        // A misspelt operator: the one suggested in its place.
                        #expect(Self.words(fixed).1.count == words.count, "\(text) → \(fixed)")
                    } else {
                        #expect(Self.words(fixed).1.count > words.count, "\(text) → \(fixed)")
                    }
                }
            }
        }
    }
}
