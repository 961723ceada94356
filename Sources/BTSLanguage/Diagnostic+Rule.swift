extension Diagnostic {
    /// Which mistake a diagnostic is, stated where it is made: a stable kebab-case name that
    /// `bts check --format json`, `bts test`'s JSON report and `bts lsp` (as the diagnostic's code)
    /// report, for a user or an editor to filter on. The cases are listed in docs/usage.md.
    package enum Rule: String, Sendable, Hashable, CaseIterable {
        /// A quoted string is not closed before the end of the input.
        case unclosedQuote = "unclosed-quote"
        /// A backslash ends the input, with no line for it to continue onto.
        case trailingBackslash = "trailing-backslash"
        /// A NUL character in the text.
        case nulCharacter = "nul-character"
        /// A malformed variable reference: `${` not closed, an empty name, a bad key, index or default.
        case badPath = "bad-path"
        /// A pipe with no command on one side, or a block piped as a whole.
        case badPipe = "bad-pipe"
        /// A redirection without a file, with words after it, or with a pipe as well.
        case badRedirection = "bad-redirection"
        /// A command name that is empty, an option, or made from variables.
        case badCommandName = "bad-command-name"
        /// An option word that is not an option name (`--=5`, `--a.b`, `--li"mit"`).
        case malformedOption = "malformed-option"
        /// A `for`, `while` or `if` block with no `end`.
        case unclosedBlock = "unclosed-block"
        /// An `end` with no open block.
        case strayEnd = "stray-end"
        /// An `elif` or `else` outside an `if`, after its `else`, or a second `else`.
        case misplacedBranch = "misplaced-branch"
        /// A `break` or `continue` outside a loop.
        case outsideLoop = "outside-loop"
        /// Blocks or a condition nested deeper than the language allows.
        case nestingTooDeep = "nesting-too-deep"
        /// A `for` loop not of the form `for NAME in WORD…`, `in lines FILE` or `in words TEXT`.
        case badLoop = "bad-loop"
        /// A missing or malformed condition of `if`, `elif`, `while` or `expect`.
        case badCondition = "bad-condition"
        /// A condition of three words whose middle word is not an operator.
        case unknownOperator = "unknown-operator"
        /// One word holding an operator or a parenthesis that must be a word of its own (`$n==6`).
        case gluedWord = "glued-word"
        /// A name that is neither a command nor an alias (or is a keyword used as a command).
        case unknownCommand = "unknown-command"
        /// A word that is not a subcommand of the command it follows.
        case unknownSubcommand = "unknown-subcommand"
        /// An option the command does not have.
        case unknownOption = "unknown-option"
        /// An option given more than once.
        case duplicateOption = "duplicate-option"
        /// A value of the wrong type or out of range, or a value given to a flag.
        case invalidValue = "invalid-value"
        /// A required argument, subcommand or option value that is not there.
        case missingArgument = "missing-argument"
        /// More words than the command or keyword takes.
        case extraArgument = "extra-argument"
        /// Arguments or options that cannot be given together.
        case conflictingArguments = "conflicting-arguments"
        /// A word that must be a variable's name and is not (or is written with `$`).
        case badVariableName = "bad-variable-name"
        /// Words a command's own grammar rejects beyond its options and arguments (`set`, `every`).
        case badArguments = "bad-arguments"
        /// Not a finding of the check: an error met while a script ran, shown at its place.
        case runError = "run-error"
    }
}
