/// One short script for each rule of the check (`Diagnostic.Rule`'s names), each making that
/// mistake: the corpus the end-to-end check test and the language server test read alike. The
/// only rule without a script is `run-error`, which the check never reports.
package enum RuleCorpus {
    /// Rule name → a script with that mistake.
    package static let scripts: [String: String] = [
        "unclosed-quote": "echo \"open\n",
        "trailing-backslash": "echo a \\",
        "nul-character": "echo a\u{0}b\n",
        "bad-path": "echo ${_.items[0}\n",
        "bad-pipe": "| sort\n",
        "bad-redirection": "search title dune >\n",
        "bad-command-name": "--limit 5\n",
        "malformed-option": "search title dune --a.b\n",
        "unclosed-block": "if $x == 1\n  echo a\n",
        "stray-end": "end\n",
        "misplaced-branch": "else\n",
        "outside-loop": "break\n",
        "nesting-too-deep": "expect " + String(repeating: "not ", count: 50) + "1\n",
        "bad-loop": "for x in\nend\n",
        "bad-condition": "if\nend\n",
        "unknown-operator": "expect $x contians y\n",
        "glued-word": "expect $n==6\n",
        "unknown-command": "serch dune\n",
        "unknown-subcommand": "cache shwo\n",
        "unknown-option": "search title dune --limt 5\n",
        "duplicate-option": "search title dune --limit 1 --limit 2\n",
        "invalid-value": "search title dune --output jsn\n",
        "missing-argument": "search title\n",
        "extra-argument": "for x in a\n  echo $x\nend now\n",
        "conflicting-arguments": "similar 9780441013593 --library\n",
        "bad-variable-name": "for $y in c\nend\n",
        "bad-arguments": "set x 1 2\n",
    ]

    /// The rules the check never reports, so with no script here.
    package static let notFromTheCheck: Set<String> = ["run-error"]
}

extension RuleCorpus {
    /// Each place that suggests a word, misspelt alone in a script, and the word it suggests: a
    /// command, a keyword, a long and a short option, an option's value, a column name, a
    /// subcommand (of a command and of `help`), `help`'s command, a setting and its value, `for`'s
    /// `in`, `else` given a condition, an operator of `if` and of `expect`.
    package static let misspelt: [(script: String, guess: String)] = [
        ("serch dune", "search"),
        ("whiel $x == 1\nend", "while"),
        ("ned", "end"),
        ("search title dune --limt 5", "--limit"),
        ("search title dune -limit 5", "--limit"),
        ("search title dune --output jsn", "json"),
        ("search title dune --columns titel", "title"),
        ("cache shwo", "show"),
        ("help serch", "search"),
        ("help cache shwo", "show"),
        ("set tim-ing on", "timing"),
        ("set timing onn", "on"),
        ("for x inn a b\n  echo $x\nend", "in"),
        ("if $x == 1\n  echo a\nelse $x\n  echo b\nend", "elif"),
        ("if $x contians y\n  echo c\nend", "contains"),
        ("expect $x contians y", "contains"),
    ]
}
