/// The kinds of semantic tokens `bts lsp` reports and their modifiers, in the order of the legend
/// it states at `initialize` (a token's type is its index here, a modifier its bit).
enum SemanticTokenType: Int, CaseIterable {
    /// A block keyword (`for`, `if`, `end`, …) and a `for` head's `in`, `lines`, `words`.
    case keyword
    /// A command's name the registry knows, or an alias the document defines.
    case function
    /// A subcommand's name (`title` after `search`).
    case method
    /// An option's dashes and name (`--limit`, `-n`).
    case parameter
    /// `$name`, `${name`: a reference's `$` and name; a name `set` or `for` gives a value.
    case variable
    /// A step of a reference's path (`.results`, `[0]`).
    case property
    /// A word with quotes in it (its references apart).
    case string
    /// An unquoted word that is a number.
    case number
    /// A condition's operator or word (`==`, `not`, `exists`), `>`/`>>` and `|`.
    case `operator`
    /// `#` to the end of its line.
    case comment

    /// The name LSP gives the type.
    var name: String { self == .operator ? "operator" : "\(self)" }
}

/// A semantic token's modifiers, each a bit (1 << rawValue).
enum SemanticTokenModifier: Int, CaseIterable {
    /// Where a name is given its meaning: `set NAME`, `for NAME in`, `alias NAME`.
    case declaration
    /// A value a script cannot set: `$_`, `${env.…}`, `$_http`, `$1`, `$@`, `$#`, `$?`.
    case readonly

    var name: String { "\(self)" }
    var bit: Int { 1 << rawValue }
}
