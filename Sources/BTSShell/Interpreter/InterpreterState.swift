/// What the interpreter tracks while commands run: where the running command came from, how
/// deeply aliases and `source`s are nested, `$1..$n`, the aliases, an `exit` asked for, the
/// active output redirection and the last search. A ``Shell`` holds one (`state`).
struct InterpreterState: Sendable {
    /// Set by `exit`: stop everything and leave with this status.
    var exitRequest: Int32?
    /// How many alias calls and `source`s are running inside one another (see `InterpreterState+Nesting.swift`).
    var sourceDepth = 0
    /// Set when an expansion went past `maxNesting`: every level of it stops.
    var nestingOverflowed = false
    /// Where the command running now came from (relative paths resolve against its directory).
    var currentSource: SourceContext?
    /// `$1..$n` as they stand: the script's, or those of a `source FILE ARG…` or an alias call running now.
    var positionalArguments: [String]
    /// `alias NAME TEXT`: the text run in place of NAME.
    var aliases: [String: String] = [:]
    /// The last title or author search (`more` fetches its next page).
    var lastSearch: SearchPage?
    /// Where stdout goes while a command with `> FILE`, `>> FILE` or `| pipeline` runs.
    var redirect: ActiveRedirect?

    init(positionalArguments: [String]) {
        self.positionalArguments = positionalArguments
    }
}
