import BTSLanguage
import BTSShell

/// The language's keywords as hover explains them: each one's syntax, what it does and an example
/// from docs/language.md. The block keywords (``Parser/keywords``) and the words of a condition
/// (``Expectation/Keyword``) each have one entry (a test holds the table to both lists).
package struct KeywordReference: Sendable, Hashable {
    package var keyword: String
    /// How it is written.
    var syntax: String
    /// What it does, one line.
    var summary: String
    /// A line that uses it.
    var example: String

    /// Whether it is one of a condition's words (`and`, `exists`, …) rather than a block's.
    var isConditionWord: Bool { Expectation.Keyword(rawValue: keyword) != nil }

    /// The hover's text.
    var text: String { "\(syntax)\n\n\(summary)\n\nExample: \(example)" }

    package static let all: [KeywordReference] = [
        KeywordReference(
            keyword: "for",
            syntax: "for NAME in WORD… | for NAME in lines FILE | for NAME in words TEXT… … end",
            summary: "Runs the block once per item, with $NAME the item (a list's element keeps its structure).",
            example: "for book in ${_.results}"
        ),
        KeywordReference(
            keyword: "while",
            syntax: "while COND … end",
            summary:
                "Tests the condition before each round and runs the block while it holds (at most looplimit rounds).",
            example: "while $seen < ${_.totalCount}"
        ),
        KeywordReference(
            keyword: "if",
            syntax: "if COND … [elif COND …] [else …] end",
            summary: "Runs the block when the condition holds (a condition is anything expect accepts).",
            example: "if $? != 0; echo \"no similar books\"; end"
        ),
        KeywordReference(
            keyword: "elif",
            syntax: "elif COND",
            summary: "Inside an if block: the branch run when the conditions before failed and this one holds.",
            example: "elif exists ${book.year}; echo \"${book.isbn} is from ${book.year}\""
        ),
        KeywordReference(
            keyword: "else",
            syntax: "else",
            summary: "Inside an if block: the branch run when no condition held.",
            example: "else; echo \"${book.isbn} has no year\""
        ),
        KeywordReference(
            keyword: "end",
            syntax: "end",
            summary: "Closes the innermost for, while or if block.",
            example: "for word in words one two three; if $word == two; continue; end; echo $word; end"
        ),
        KeywordReference(
            keyword: "break",
            syntax: "break",
            summary: "Leaves the innermost for or while loop.",
            example: "if $i == 5; break; end"
        ),
        KeywordReference(
            keyword: "continue",
            syntax: "continue",
            summary: "Starts the innermost loop's next round.",
            example: "if $i == 2; continue; end"
        ),
        KeywordReference(
            keyword: "not",
            syntax: "not FACTOR",
            summary: "In a condition: negates what follows (it binds tightest; not A == B negates the whole atom).",
            example:
                "expect ${_.totalCount} > 0 and ( ${_.results[0].year} >= 2000 or not exists ${_.results[0].year} )"
        ),
        KeywordReference(
            keyword: "and",
            syntax: "TERM and TERM",
            summary: "In a condition: holds when both sides hold (the right side is not read when the left is false).",
            example:
                "expect ${_.totalCount} > 0 and ( ${_.results[0].year} >= 2000 or not exists ${_.results[0].year} )"
        ),
        KeywordReference(
            keyword: "or",
            syntax: "TERM or TERM",
            summary: "In a condition: holds when either side holds (the right side is not read when the left is true).",
            example: "if $? != 0 or count ${_.results} == 0; echo \"nothing found\"; end"
        ),
        KeywordReference(
            keyword: "exists",
            syntax: "exists ${PATH}",
            summary: "In a condition: holds when the path leads to a value.",
            example: "expect exists ${_.results[0].isbn}"
        ),
        KeywordReference(
            keyword: "count",
            syntax: "count ${PATH} OP N",
            summary: "In a condition: compares the elements of an array or object (a string's characters) with N.",
            example: "expect count ${_.results} >= 3"
        ),
    ]

    /// The entry of `word`.
    static func entry(_ word: String) -> KeywordReference? {
        all.first { $0.keyword == word }
    }
}
