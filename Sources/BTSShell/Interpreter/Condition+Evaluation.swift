import BTSLanguage
import BooksTrackContract

extension Condition {
    /// An atom as evaluated: whether it held, and the lines that show its sides.
    struct Outcome: Sendable, Hashable {
        var atom: Atom
        var passed: Bool
        var details: [String]
    }

    /// Evaluates the condition in order, stopping as soon as the answer is known (`a and b`: `b`
    /// is not read when `a` is false; `a or b`: when `a` is true). `value` reads a word: a
    /// failure of status `.failure` (a missing path) makes its atom false, any other is thrown.
    /// `whole` is where an atom's usage error points when the condition is that one atom.
    /// Each atom evaluated is appended to `outcomes`.
    func evaluate(
        _ value: (Word) -> Result<JSONValue, ShellError>,
        whole: SourceRange,
        _ outcomes: inout [Outcome]
    ) throws(ShellError) -> Bool {
        let single = isOneAtom
        return try evaluate(value, at: { single ? whole : $0.range }, &outcomes)
    }

    /// One atom, negated or not (`and` and `or` always join two or more).
    private var isOneAtom: Bool {
        switch self {
        case .atom: return true
        case .not(let inner): return inner.isOneAtom
        case .all, .any: return false
        }
    }

    private func evaluate(
        _ value: (Word) -> Result<JSONValue, ShellError>,
        at range: (Atom) -> SourceRange,
        _ outcomes: inout [Outcome]
    ) throws(ShellError) -> Bool {
        switch self {
        case .atom(let atom):
            let outcome = try atom.evaluate(value, range: range(atom))
            outcomes.append(outcome)
            return outcome.passed
        case .not(let inner):
            return try !inner.evaluate(value, at: range, &outcomes)
        case .all(let parts):
            for part in parts {
                if try !part.evaluate(value, at: range, &outcomes) { return false }
            }
            return true
        case .any(let parts):
            for part in parts {
                if try part.evaluate(value, at: range, &outcomes) { return true }
            }
            return false
        }
    }

    /// The lines a failed `expect` prints: one atom's sides as they are, several atoms' each under
    /// the atom and what it came to.
    static func details(_ outcomes: [Outcome]) -> [String] {
        guard outcomes.count > 1 else { return outcomes.first?.details ?? [] }
        return outcomes.flatMap { outcome in
            ["\(outcome.atom.text): \(outcome.passed)"] + outcome.details.map { "  " + $0 }
        }
    }
}

extension Condition.Atom {
    /// Evaluates the atom; a usage error (an ordering of text, a bad regular expression) points at `range`.
    func evaluate(
        _ value: (Word) -> Result<JSONValue, ShellError>,
        range: SourceRange
    ) throws(ShellError) -> Condition.Outcome {
        /// A side's value; a missing path makes the atom false (exit 4 for `expect`), not the script fail (2).
        func side(_ word: Word) throws(ShellError) -> Result<JSONValue, ShellError> {
            switch value(word) {
            case .success(let found): return .success(found)
            case .failure(let error) where error.status == .failure: return .failure(error)
            case .failure(let error): throw error
            }
        }
        func show(_ result: Result<JSONValue, ShellError>) -> String {
            switch result {
            case .success(.string(let text)) where Expectation.number(.string(text)) != nil: return text
            case .success(let value): return value.compactJSON
            case .failure(let error): return "(missing: \(error.message))"
            }
        }
        func compare(_ a: JSONValue, _ op: Expectation.Operator, _ b: JSONValue) throws(ShellError) -> Bool {
            switch Expectation.evaluate(a, op, b) {
            case .success(let passed): return passed
            case .failure(let invalid): throw ShellError(.usage, invalid.message, range: range)
            }
        }
        switch form {
        case .value(let word):
            let result = try side(word)
            var passed = false
            if case .success(let found) = result { passed = Expectation.isTruthy(found) }
            return Condition.Outcome(atom: self, passed: passed, details: ["value: \(show(result))"])
        case .exists(let word):
            let result = try side(word)
            var passed = false
            if case .success(let found) = result { passed = !found.isNull }
            return Condition.Outcome(atom: self, passed: passed, details: ["value: \(show(result))"])
        case .comparison(let left, let op, let right):
            let a = try side(left)
            let b = try side(right)
            var passed = false
            if case .success(let leftValue) = a, case .success(let rightValue) = b {
                passed = try compare(leftValue, op, rightValue)
            }
            return Condition.Outcome(atom: self, passed: passed, details: ["left:  \(show(a))", "right: \(show(b))"])
        case .count(let subject, let op, let limit):
            let counted = try side(subject)
            let bound = try side(limit)
            guard case .success(let subjectValue) = counted, case .success(let limitValue) = bound else {
                return Condition.Outcome(
                    atom: self,
                    passed: false,
                    details: ["count: \(show(counted))", "right: \(show(bound))"]
                )
            }
            guard let count = Expectation.count(subjectValue) else {
                throw ShellError(
                    .usage,
                    "'\(Expectation.Keyword.count.rawValue)' needs an array, object or string, got "
                        + subjectValue.compactJSON,
                    range: subject.range
                )
            }
            let passed = try compare(count.json, op, limitValue)
            return Condition.Outcome(atom: self, passed: passed, details: ["count: \(count)", "right: \(show(bound))"])
        }
    }
}
