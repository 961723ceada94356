import BTSLanguage

/// A condition of `expect`, `if`, `elif` and `while`, read from its words by ``parse(_:what:)``
/// (pure: no I/O). The words of the grammar are unquoted words of their own; quoted, they are values.
/// ```
/// condition := term ('or' term)*
/// term      := factor ('and' factor)*
/// factor    := 'not' factor | '(' condition ')' | atom
/// atom      := VALUE | A OP B | exists PATH | count PATH OP N
/// ```
/// `not` binds tightest, then `and`, then `or`; an atom is the run of words up to the next `and`,
/// `or` or `)`. The check (``ExpectCommand/diagnostic(in:source:)``, the `if`/`elif`/`while` check)
/// and the evaluation (``ExpectCommand/evaluate(_:what:range:in:)``) both read a condition here.
indirect enum Condition: Sendable, Hashable {
    case atom(Atom)
    case not(Condition)
    /// `a and b and …`: true when every one is (evaluated in order, stopping at the first false).
    case all([Condition])
    /// `a or b or …`: true when any one is (evaluated in order, stopping at the first true).
    case any([Condition])

    /// One of the forms `expect` has always read.
    struct Atom: Sendable, Hashable {
        enum Form: Sendable, Hashable {
            /// True when the value is non-empty and not false/0/null.
            case value(Word)
            case comparison(Word, Expectation.Operator, Word)
            /// The path resolves (to anything but null).
            case exists(Word)
            /// The number of elements or characters of the path, compared with N.
            case count(Word, Expectation.Operator, Word)
        }

        var form: Form
        /// The words as written.
        var words: [Word]
        var range: SourceRange

        /// The atom as written (for messages).
        var text: String { words.map(\.sourceForm).joined(separator: " ") }
    }

    /// Parentheses and `not`s nest at most this deep (the parser and the evaluation recurse).
    static let maxDepth = 40

    /// The atoms, in the order they are written.
    var atoms: [Atom] {
        switch self {
        case .atom(let atom): return [atom]
        case .not(let inner): return inner.atoms
        case .all(let parts), .any(let parts): return parts.flatMap(\.atoms)
        }
    }

    /// The comparisons `count` takes (not `contains`, `matches`).
    static let countOperators = Expectation.Operator.allCases.filter { $0 != .contains && $0 != .matches }

    /// The operators written with symbols (`==`, `<=`…): a word holding one is a mistake (``Problem``).
    static let symbolOperators = Expectation.Operator.allCases.filter { !$0.rawValue.contains(where: \.isLetter) }
        .sorted { $0.rawValue.utf8.count > $1.rawValue.utf8.count }

    /// What a condition may be (the usage line of messages).
    static let usage =
        "expected one of: VALUE · A OP B (OP: "
        + Expectation.Operator.allCases.map(\.rawValue).joined(separator: " ")
        + ") · \(Expectation.Keyword.exists.rawValue) ${PATH} · \(Expectation.Keyword.count.rawValue) ${PATH} OP N"
        + "; combined with '\(Expectation.Keyword.not.rawValue)', '\(Expectation.Keyword.and.rawValue)', "
        + "'\(Expectation.Keyword.or.rawValue)' and '\(Expectation.Parenthesis.open.rawValue) "
        + "\(Expectation.Parenthesis.close.rawValue)'"

    /// What the grammar makes of a word: a connective, a parenthesis, or anything else.
    enum Role: Equatable {
        case and, or, not, open, close, other
    }

    static func role(of word: Word) -> Role {
        guard !word.isQuoted, let text = word.literalText else { return .other }
        switch text {
        case Expectation.Keyword.and.rawValue: return .and
        case Expectation.Keyword.or.rawValue: return .or
        case Expectation.Keyword.not.rawValue: return .not
        case Expectation.Parenthesis.open.rawValue: return .open
        case Expectation.Parenthesis.close.rawValue: return .close
        default: return .other
        }
    }

    static func isKeyword(_ word: Word, _ keyword: Expectation.Keyword) -> Bool {
        !word.isQuoted && word.literalText == keyword.rawValue
    }

    static func op(_ word: Word) -> Expectation.Operator? {
        guard !word.isQuoted, let text = word.literalText else { return nil }
        return Expectation.Operator(rawValue: text)
    }
}

// MARK: Problems

extension Condition {
    /// Why words are not a condition (a usage error, exit 2), with where and, for a word that should
    /// be several, the fix.
    struct Problem: Error, Sendable, Hashable {
        enum Reason: Sendable, Hashable {
            case message(String)
            /// One word holding an operator (`$n==6`): a single value, so always true.
            case oneWord(Split, operator: String)
            /// A parenthesis written against a value (`(a`, `b)`): it is a word of its own.
            case glued(Split, parenthesis: String)
        }

        var reason: Reason
        /// Which mistake it is: a message's own, else a word that should be several.
        var rule: Diagnostic.Rule
        /// Where it is; nil: the whole condition.
        var range: SourceRange?
        /// The word a message's "did you mean" puts in place of another, as a fix.
        var suggestion: Diagnostic.FixIt?

        init(
            _ message: String,
            rule: Diagnostic.Rule,
            at range: SourceRange? = nil,
            suggestion: Diagnostic.FixIt? = nil
        ) {
            reason = .message(message)
            self.rule = rule
            self.range = range
            self.suggestion = suggestion
        }

        init(_ reason: Reason, at range: SourceRange?) {
            self.reason = reason
            rule = .gluedWord
            self.range = range
        }

        /// The message, quoting the words from `source` when there is one (as written), else from
        /// the words themselves.
        func message(in source: SourceFile?) -> String {
            switch reason {
            case .message(let text):
                return text
            case .oneWord(let split, let op):
                let texts = split.texts(in: source)
                guard let spaced = texts.spaced else {
                    return "'\(texts.word)' is one word, so it is always true; write '\(op)' between two values, "
                        + "with blanks around it"
                }
                return "'\(texts.word)' is one word, so it is always true; write '\(spaced)'"
            case .glued(let split, let parenthesis):
                let texts = split.texts(in: source)
                return "'\(parenthesis)' is a word of its own: write '\(texts.spaced ?? texts.word)'"
            }
        }

        /// The replacement of the word by the words it should be, when `source` gives their text.
        func fixIt(in source: SourceFile?) -> Diagnostic.FixIt? {
            if case .message = reason { return suggestion }
            guard let source else { return nil }
            switch reason {
            case .message: return suggestion
            case .oneWord(let split, _), .glued(let split, _):
                return split.texts(in: source).spaced.map { Diagnostic.FixIt(range: split.word.range, replacement: $0) }
            }
        }

        /// The problem as the check reports it; `whole` is the condition's command.
        func diagnostic(in source: SourceFile?, whole: SourceRange) -> Diagnostic {
            .error(message(in: source), rule: rule, at: range ?? whole, fixIt: fixIt(in: source))
        }
    }

    /// A word and the piece of it that should be a word of its own.
    struct Split: Sendable, Hashable {
        var word: Word
        var piece: SourceRange

        /// The word as written and, when the piece has text on both sides (or is a parenthesis),
        /// the word written as separate words.
        func texts(in source: SourceFile?) -> (word: String, spaced: String?) {
            let before: String
            let middle: String
            let after: String
            if let source {
                before = source.slice(SourceRange(from: word.range.offset, to: piece.offset))
                middle = source.slice(piece)
                after = source.slice(SourceRange(from: piece.end, to: word.range.end))
            } else {
                (before, middle, after) = pieces()
            }
            let whole = before + middle + after
            let isParenthesis = Expectation.Parenthesis(rawValue: middle) != nil
            guard isParenthesis || (!before.isEmpty && !after.isEmpty) else { return (whole, nil) }
            return (whole, [before, middle, after].filter { !$0.isEmpty }.joined(separator: " "))
        }

        /// Before, the piece and after, in the words' own spelling (without a source).
        private func pieces() -> (String, String, String) {
            var before = ""
            var middle = ""
            var after = ""
            for part in word.parts {
                let range = part.range
                if range.end <= piece.offset {
                    before += Word(parts: [part], range: range).sourceForm
                } else if range.offset >= piece.end {
                    after += Word(parts: [part], range: range).sourceForm
                } else if case .literal(let text, _, _) = part {
                    let bytes = Array(text.utf8)
                    let start = min(max(0, piece.offset - range.offset), bytes.count)
                    let end = min(max(start, piece.end - range.offset), bytes.count)
                    before += String(decoding: bytes[..<start], as: UTF8.self)
                    middle = String(decoding: bytes[start..<end], as: UTF8.self)
                    after += String(decoding: bytes[end...], as: UTF8.self)
                }
            }
            return (before, middle, after)
        }
    }

    /// The first operator written with symbols inside an unquoted part of `word` (spelled as in the
    /// source: a part with escapes is left alone), as its range.
    static func operatorInside(_ word: Word) -> (op: Expectation.Operator, range: SourceRange)? {
        for part in word.parts {
            guard case .literal(let text, let range, false) = part, text.utf8.count == range.length else { continue }
            let bytes = Array(text.utf8)
            for start in bytes.indices {
                for op in symbolOperators where bytes[start...].starts(with: op.rawValue.utf8) {
                    return (op, SourceRange(offset: range.offset + start, length: op.rawValue.utf8.count))
                }
            }
        }
        return nil
    }

    /// A parenthesis glued to the start (`(a`) or the end (`b)`) of an unquoted word, as its range.
    static func gluedParenthesis(_ word: Word, _ parenthesis: Expectation.Parenthesis) -> SourceRange? {
        let mark = parenthesis.rawValue
        switch parenthesis {
        case .open:
            guard case .literal(let text, let range, false)? = word.parts.first, text.utf8.count == range.length,
                text.hasPrefix(mark), word.range.length > mark.utf8.count
            else { return nil }
            return SourceRange(offset: range.offset, length: mark.utf8.count)
        case .close:
            guard case .literal(let text, let range, false)? = word.parts.last, text.utf8.count == range.length,
                text.hasSuffix(mark), word.range.length > mark.utf8.count
            else { return nil }
            return SourceRange(from: range.end - mark.utf8.count, to: range.end)
        }
    }
}

// MARK: Parsing

extension Condition {
    /// Reads `words` (an `expect`'s arguments, or the words after `if`/`elif`/`while`); `what`
    /// names the command in messages.
    static func parse(_ words: [Word], what: String) -> Result<Condition, Problem> {
        guard !words.isEmpty else {
            return .failure(Problem("'\(what)' needs a condition; \(usage)", rule: .badCondition))
        }
        var reader = Reader(words: words, what: what)
        do throws(Problem) {
            let condition = try reader.condition(depth: 0)
            if reader.index < words.count {
                // Only a ')' stops a condition before the end.
                throw Problem(
                    "'\(Expectation.Parenthesis.close.rawValue)' without a matching "
                        + "'\(Expectation.Parenthesis.open.rawValue)'",
                    rule: .badCondition,
                    at: words[reader.index].range
                )
            }
            return .success(condition)
        } catch {
            return .failure(error)
        }
    }

    /// A recursive descent over the words (depth bounded by ``maxDepth``).
    private struct Reader {
        let words: [Word]
        let what: String
        var index = 0
        /// `(`s read and not yet closed.
        var open = 0
        /// The atom that spans the whole condition after its leading `not`s (its problems are the
        /// whole condition's, as they always were).
        let wholeAtomStart: Int
        /// The last word that is or ends in `)` (a `(a` before it was meant as `( a`).
        let lastClose: Int?

        init(words: [Word], what: String) {
            self.words = words
            self.what = what
            wholeAtomStart = words.prefix { Condition.role(of: $0) == .not }.count
            lastClose = words.lastIndex {
                Condition.role(of: $0) == .close || Condition.gluedParenthesis($0, .close) != nil
            }
        }

        private func role(_ position: Int) -> Role? {
            position < words.count ? Condition.role(of: words[position]) : nil
        }

        mutating func condition(depth: Int) throws(Problem) -> Condition {
            var terms = [try term(depth: depth)]
            while role(index) == .or {
                index += 1
                terms.append(try term(depth: depth))
            }
            return terms.count == 1 ? terms[0] : .any(terms)
        }

        private mutating func term(depth: Int) throws(Problem) -> Condition {
            var factors = [try factor(depth: depth)]
            while role(index) == .and {
                index += 1
                factors.append(try factor(depth: depth))
            }
            return factors.count == 1 ? factors[0] : .all(factors)
        }

        private mutating func factor(depth: Int) throws(Problem) -> Condition {
            guard let role = role(index), role != .close else { throw missingCondition() }
            switch role {
            case .and, .or:
                let word = words[index]
                throw Problem("'\(word.sourceForm)' needs a condition before it", rule: .badCondition, at: word.range)
            case .not, .open:
                guard depth < maxDepth else {
                    throw Problem(
                        "the condition nests more than \(maxDepth) deep",
                        rule: .nestingTooDeep,
                        at: words[index].range
                    )
                }
                let opener = words[index]
                index += 1
                if role == .not { return .not(try factor(depth: depth + 1)) }
                open += 1
                let inner = try condition(depth: depth + 1)
                guard self.role(index) == .close else {
                    throw Problem(
                        "'\(Expectation.Parenthesis.open.rawValue)' is not closed; expected "
                            + "'\(Expectation.Parenthesis.close.rawValue)'",
                        rule: .badCondition,
                        at: opener.range
                    )
                }
                index += 1
                open -= 1
                return inner
            case .close, .other:
                return .atom(try atom())
            }
        }

        /// Nothing where a condition belongs: said of the word before (`and`, `or`, `not`, `(`).
        private func missingCondition() -> Problem {
            guard index > 0 else { return Problem("'\(what)' needs a condition; \(usage)", rule: .badCondition) }
            let previous = words[index - 1]
            return Problem(
                "'\(previous.sourceForm)' needs a condition after it",
                rule: .badCondition,
                at: previous.range
            )
        }

        /// The run of words up to the next `and`, `or` or `)`, read as one of the forms.
        private mutating func atom() throws(Problem) -> Atom {
            let start = index
            while let role = role(index), role != .and, role != .or, role != .close { index += 1 }
            let atomWords = Array(words[start..<index])
            let range = atomWords[0].range.union(atomWords[atomWords.count - 1].range)
            let at: SourceRange? = start == wholeAtomStart && index == words.count ? nil : range
            // `(a == b)`: the parentheses were meant as words of their own.
            if let glued = Condition.gluedParenthesis(atomWords[0], .open), let lastClose, lastClose > start {
                throw Problem(
                    .glued(Split(word: atomWords[0], piece: glued), parenthesis: Expectation.Parenthesis.open.rawValue),
                    at: atomWords[0].range
                )
            }
            // `( a == b)`: the `(` would be left open.
            if open > 0, index == words.count, let last = atomWords.last,
                let glued = Condition.gluedParenthesis(last, .close)
            {
                throw Problem(
                    .glued(Split(word: last, piece: glued), parenthesis: Expectation.Parenthesis.close.rawValue),
                    at: last.range
                )
            }
            return Atom(form: try form(atomWords, at: at), words: atomWords, range: range)
        }

        private func form(_ words: [Word], at range: SourceRange?) throws(Problem) -> Atom.Form {
            let first = words[0]
            if Condition.isKeyword(first, .exists) {
                guard words.count == 2 else {
                    throw Problem(
                        "'\(what) exists' takes one value, e.g. \(what) exists ${_.results[0].isbn}",
                        rule: .badCondition,
                        at: range
                    )
                }
                return .exists(words[1])
            }
            if Condition.isKeyword(first, .count) {
                guard words.count == 4, let comparison = Condition.op(words[2]),
                    Condition.countOperators.contains(comparison)
                else {
                    throw Problem(
                        "'\(what) count' reads: \(what) count ${PATH} OP N (OP: "
                            + Condition.countOperators.map(\.rawValue).joined(separator: " ") + ")",
                        rule: .badCondition,
                        at: range
                    )
                }
                return .count(words[1], comparison, words[3])
            }
            if words.count == 3, let comparison = Condition.op(words[1]) {
                return .comparison(words[0], comparison, words[2])
            }
            if words.count == 1 {
                if let alone = Condition.op(first) {
                    throw Problem(
                        "'\(alone.rawValue)' compares two values: write A \(alone.rawValue) B",
                        rule: .badCondition,
                        at: range
                    )
                }
                if let found = Condition.operatorInside(first) {
                    throw Problem(
                        .oneWord(Split(word: first, piece: found.range), operator: found.op.rawValue),
                        at: first.range
                    )
                }
                return .value(first)
            }
            var message = "cannot read this '\(what)' condition; \(usage)"
            var suggestion: Diagnostic.FixIt?
            let connectives = [Expectation.Keyword.and, .or].map(\.rawValue)
            if words.count == 3, let text = words[1].literalText,
                let guess = Suggest.closest(
                    to: text,
                    among: Expectation.Operator.allCases.map(\.rawValue) + connectives
                )
            {
                message += " (did you mean '\(guess)'?)"
                suggestion = Diagnostic.FixIt(range: words[1].range, replacement: guess)
            }
            // Three words whose middle one is not an operator; anything else is not a condition's shape.
            throw Problem(
                message,
                rule: words.count == 3 ? .unknownOperator : .badCondition,
                at: range,
                suggestion: suggestion
            )
        }
    }
}

// MARK: Completion

extension Condition {
    /// The grammar's words that may come after `words` (the start of a condition being typed):
    /// what starts a condition, an operator after a value, `and`/`or` (and `)`) after a whole one.
    static func nextWords(after words: [Word]) -> [String] {
        let starts =
            [Expectation.Keyword.not, .exists, .count].map(\.rawValue) + [Expectation.Parenthesis.open.rawValue]
        let connectives = [Expectation.Keyword.and, .or].map(\.rawValue)
        var atom: [Word] = []
        var open = 0
        var closedGroup = false
        for word in words {
            switch role(of: word) {
            case .and, .or:
                atom = []
                closedGroup = false
            case .not where atom.isEmpty:
                closedGroup = false
            case .open where atom.isEmpty:
                open += 1
                closedGroup = false
            case .close:
                open = max(0, open - 1)
                atom = []
                closedGroup = true
            default:
                atom.append(word)
                closedGroup = false
            }
        }
        let after = connectives + (open > 0 ? [Expectation.Parenthesis.close.rawValue] : [])
        if closedGroup { return after }
        guard let first = atom.first else { return starts }
        if isKeyword(first, .exists) { return atom.count == 2 ? after : [] }
        if isKeyword(first, .count) {
            switch atom.count {
            case 2: return countOperators.map(\.rawValue)
            case 4: return after
            default: return []
            }
        }
        switch atom.count {
        case 1: return Expectation.Operator.allCases.map(\.rawValue) + after
        case 3 where op(atom[1]) != nil: return after
        default: return []
        }
    }
}
