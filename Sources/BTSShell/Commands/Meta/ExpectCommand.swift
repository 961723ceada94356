import BTSLanguage
import BooksTrackContract

/// `expect EXPR` (grammar in ``Expectation``). Fails with exit 4 and prints both sides.
struct ExpectCommand: ShellCommand {
    static let expression = ArgumentSpec("EXPR", "The condition", variadic: true, completion: .variable)

    static let configuration = CommandSpec(
        "expect", group: .meta,
        summary: "Check a condition; a failure stops the script with exit \(ExitStatus.expectationFailed.rawValue)",
        discussion: """
            Forms: A == B, A != B, A > B, A >= B, A < B, A <= B (numeric when both sides are numbers), \
            A contains B (substring, array element or object key), A matches REGEX (a linear-time engine: no backreferences or lookaround), exists ${PATH}, \
            count ${PATH} OP N (elements of an array/object, characters of a string), and a single value \
            (true when non-empty and not false/0). 'not' in front negates. Operators are unquoted words. \
            Both sides are printed when it fails; a missing path on either side is a failure (exit \(ExitStatus.expectationFailed.rawValue)).
            """,
        positionals: [expression],
        examples: ["expect ${_.totalCount} > 0", "expect ${_.results[0].title} contains \"Hunger\"",
                   "expect count ${_.results} >= 3", "expect exists ${_.results[0].isbn}",
                   "expect ${_.results[0].isbn} matches '^97[89]'"],
        takesRawArguments: true)

    /// A malformed condition is a usage error before the script runs.
    static func problem(in command: Command) -> String? {
        shapeProblem(command.arguments.map(\.word), what: name)
    }

    /// Reads variables itself: structured values, and a missing path is exit 4, not 2.
    static let interpolatesArguments = false

    /// The command as written (its words are evaluated here, not interpolated beforehand).
    var command: Command

    init(_ resolved: ResolvedCommand) {
        command = resolved.command
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let (passed, details) = try Self.evaluate(command.arguments.map(\.word), range: command.range, in: context)
        guard passed else {
            let text = command.arguments.map(\.word.sourceForm).joined(separator: " ")
            throw ShellError(.expectationFailed, "expectation failed: \(text)", range: command.range, details: details,
                             code: .expectFailed)
        }
        return nil
    }

    static let usage = "expected one of: VALUE · A OP B (OP: "
        + Expectation.Operator.allCases.map(\.rawValue).joined(separator: " ")
        + ") · \(Expectation.Keyword.exists.rawValue) ${PATH} · \(Expectation.Keyword.count.rawValue) ${PATH} OP N"

    private static func keyword(_ word: Word, _ keyword: Expectation.Keyword) -> Bool {
        !word.isQuoted && word.literalText == keyword.rawValue
    }

    private static func op(_ word: Word) -> Expectation.Operator? {
        guard !word.isQuoted, let text = word.literalText else { return nil }
        return Expectation.Operator(rawValue: text)
    }

    /// What is wrong with the shape of a condition (checked before a script runs), or nil.
    /// `what` names the command in the message (`expect`, `if`, `elif`).
    static func shapeProblem(_ allWords: [Word], what: String) -> String? {
        var words = allWords
        if let first = words.first, keyword(first, .not), words.count > 1 { words.removeFirst() }
        guard let first = words.first else { return "'\(what)' needs a condition; \(usage)" }
        if keyword(first, .exists) {
            return words.count == 2 ? nil : "'\(what) exists' takes one value, e.g. \(what) exists ${_.results[0].isbn}"
        }
        if keyword(first, .count) {
            guard words.count == 4, let comparison = op(words[2]), comparison != .contains, comparison != .matches else {
                return "'\(what) count' reads: \(what) count ${PATH} OP N (OP: == != < <= > >=)"
            }
            return nil
        }
        if words.count == 3, op(words[1]) != nil { return nil }
        if words.count == 1 { return nil }
        var message = "cannot read this '\(what)' condition; \(usage)"
        if words.count == 3, let text = words[1].literalText,
           let guess = Suggest.closest(to: text, among: Expectation.Operator.allCases.map(\.rawValue)) {
            message += " (did you mean '\(guess)'?)"
        }
        return message
    }

    /// Evaluates a condition (the words of `expect`, `if` or `elif`): whether it holds, and the
    /// lines that show both sides. A missing path makes it false; a malformed one is a usage error.
    static func evaluate(_ allWords: [Word], range whole: SourceRange,
                         in context: isolated any CommandContext) throws -> (passed: Bool, details: [String]) {
        var words = allWords
        var negated = false
        if let first = words.first, keyword(first, .not), words.count > 1 {
            negated = true
            words.removeFirst()
        }
        guard !words.isEmpty else { throw ShellError(.usage, "'expect' needs a condition; \(usage)", range: whole) }

        /// A side's value; a missing path makes the expectation fail (exit 4), not the script (2).
        func side(_ word: Word) throws(ShellError) -> Result<JSONValue, ShellError> {
            switch context.value(of: word) {
            case .success(let value): return .success(value)
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
        var passed: Bool
        var details: [String]
        if keyword(words[0], .exists) {
            guard words.count == 2 else { throw ShellError(.usage, "'expect exists' takes one value, e.g. expect exists ${_.results[0].isbn}", range: whole) }
            let result = try side(words[1])
            if case .success(let value) = result, !value.isNull { passed = true } else { passed = false }
            details = ["value: \(show(result))"]
        } else if keyword(words[0], .count) {
            guard words.count == 4, let comparison = op(words[2]), comparison != .contains, comparison != .matches else {
                throw ShellError(.usage, "'expect count' reads: expect count ${PATH} OP N (OP: == != < <= > >=)", range: whole)
            }
            let subject = try side(words[1])
            let limit = try side(words[3])
            switch (subject, limit) {
            case (.success(let value), .success(let limitValue)):
                guard let count = Expectation.count(value) else {
                    throw ShellError(.usage, "'expect count' needs an array, object or string, got \(value.compactJSON)", range: words[1].range)
                }
                switch Expectation.evaluate(count.json, comparison, limitValue) {
                case .success(let ok): passed = ok
                case .failure(let invalid): throw ShellError(.usage, invalid.message, range: whole)
                }
                details = ["count: \(count)", "right: \(limitValue.compactJSON)"]
            default:
                passed = false
                details = ["count: \(show(subject))", "right: \(show(limit))"]
            }
        } else if words.count == 3, let comparison = op(words[1]) {
            let left = try side(words[0])
            let right = try side(words[2])
            switch (left, right) {
            case (.success(let a), .success(let b)):
                switch Expectation.evaluate(a, comparison, b) {
                case .success(let ok): passed = ok
                case .failure(let invalid): throw ShellError(.usage, invalid.message, range: whole)
                }
            default:
                passed = false
            }
            details = ["left:  \(show(left))", "right: \(show(right))"]
        } else if words.count == 1 {
            let result = try side(words[0])
            if case .success(let value) = result { passed = Expectation.isTruthy(value) } else { passed = false }
            details = ["value: \(show(result))"]
        } else {
            throw ShellError(.usage, "cannot read this 'expect' condition; \(usage)", range: whole)
        }
        if negated { passed.toggle() }
        return (passed, details)
    }
}

extension ErrorCode {
    /// A failed `expect`.
    static let expectFailed: ErrorCode = "EXPECT_FAILED"
}
