import BTSLanguage
import BooksTrackContract

/// `expect EXPR` (grammar in ``Condition``, semantics in ``Expectation``). Fails with exit 4 and
/// prints the sides of each atom it evaluated.
struct ExpectCommand: ShellCommand {
    static let result: CommandResult = .leavesResult

    static let expression = ArgumentSpec("EXPR", "The condition", variadic: true, completion: .variable)

    static let configuration = CommandSpec(
        "expect",
        group: .meta,
        summary: "Check a condition; a failure stops the script with exit \(ExitStatus.expectationFailed.rawValue)",
        discussion: discussion,
        usage: usageLines,
        positionals: [expression],
        examples: [
            "expect ${_.totalCount} > 0", "expect ${_.results[0].title} contains \"Hunger\"",
            "expect count ${_.results} >= 3", "expect exists ${_.results[0].isbn}",
            "expect ${_.results[0].isbn} matches '^97[89]'",
            "expect ${_.totalCount} > 0 and ( ${_.results[0].year} >= 2000 or not exists ${_.results[0].year} )",
        ],
        takesRawArguments: true
    )

    private static let not = Expectation.Keyword.not.rawValue
    private static let and = Expectation.Keyword.and.rawValue
    private static let or = Expectation.Keyword.or.rawValue
    private static let open = Expectation.Parenthesis.open.rawValue
    private static let close = Expectation.Parenthesis.close.rawValue

    /// The forms, from the keywords and parentheses (the operators are listed by the discussion).
    private static let usageLines = [
        "expect A OP B | VALUE | \(Expectation.Keyword.exists.rawValue) ${PATH} | \(Expectation.Keyword.count.rawValue) ${PATH} OP N",
        "expect EXPR \(and) EXPR | EXPR \(or) EXPR | \(not) EXPR | \(open) EXPR \(close)",
    ]

    private static let discussion = """
        An atom is A OP B (OP: \(Expectation.Operator.allCases.map(\.rawValue).joined(separator: " ")); the comparisons \
        are numeric when both sides are numbers), A contains B (substring, array element or object key), A matches \
        REGEX (a linear-time engine: no backreferences or lookaround), exists ${PATH}, count ${PATH} OP N (elements \
        of an array/object, characters of a string), or a single value (true when non-empty and not false/0). \
        Atoms combine with '\(not)', '\(and)' and '\(or)' ('\(not)' binds tightest, then '\(and)', then '\(or)') \
        and group with '\(open)' '\(close)'; a condition is evaluated from the left, only as far as needed. \
        Operators, keywords and parentheses are unquoted words of their own (quoted, they are values): one word \
        such as $n==6 would be a single value, always true, and is an error. The sides of each atom evaluated are \
        printed when it fails; a missing path on either side is a failure (exit \(ExitStatus.expectationFailed.rawValue)).
        """

    /// A malformed condition is a usage error before the script runs; a word that should be
    /// several (`$n==6`) comes with the fix.
    static func diagnostic(in command: Command, source: SourceFile) -> Diagnostic? {
        switch Condition.parse(command.arguments.map(\.word), what: name) {
        case .success: return nil
        case .failure(let problem): return problem.diagnostic(in: source, whole: command.range)
        }
    }

    /// Reads variables itself: structured values, and a missing path is exit 4, not 2.
    static let interpolatesArguments = false

    /// The command as written (its words are evaluated here, not interpolated beforehand).
    var command: Command

    init(_ resolved: ResolvedCommand) {
        command = resolved.command
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        let (passed, details) = try Self.evaluate(
            command.arguments.map(\.word),
            what: Self.name,
            range: command.range,
            in: context
        )
        guard passed else {
            let text = command.arguments.map(\.word.sourceForm).joined(separator: " ")
            throw ShellError(
                .expectationFailed,
                "expectation failed: \(text)",
                range: command.range,
                details: details,
                code: .expectFailed
            )
        }
        return nil
    }

    /// Evaluates a condition (the words of `expect`, `if`, `elif` or `while`, `what` naming it):
    /// whether it holds, and the lines that show the sides of each atom evaluated. A missing path
    /// makes its atom false; a malformed condition is a usage error.
    static func evaluate(
        _ words: [Word],
        what: String,
        range whole: SourceRange,
        in context: isolated any CommandContext
    ) throws(ShellError) -> (passed: Bool, details: [String]) {
        let condition: Condition
        switch Condition.parse(words, what: what) {
        case .success(let parsed): condition = parsed
        case .failure(let problem): throw ShellError(.usage, problem.message(in: nil), range: problem.range ?? whole)
        }
        var outcomes: [Condition.Outcome] = []
        let passed = try condition.evaluate({ context.value(of: $0) }, whole: whole, &outcomes)
        return (passed, Condition.details(outcomes))
    }
}

extension ErrorCode {
    /// A failed `expect`.
    static let expectFailed: ErrorCode = "EXPECT_FAILED"
}
